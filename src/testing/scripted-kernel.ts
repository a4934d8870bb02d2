import { startKernelServer } from '../demo-kernel/kernel-server';
import { KERNEL_SCRIPT_KEYWORDS } from '../demo-kernel/kernel-scripts';

export interface ScriptedKernelOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** 0 (the default) = an ephemeral port: read `url`. */
  readonly port?: number;
  /** When set, every route needs `Authorization: Bearer <token>` (give the gateway IAC_CODE_AGUI_A2A_TOKEN). */
  readonly token?: string;
  /** It keeps the most recently saved tasks, between this many and twice as many; default 1,000. */
  readonly maxTasks?: number;
}

export interface ScriptedKernel {
  /** Base URL ending with '/': the gateway's IAC_CODE_AGUI_A2A_URL. */
  readonly url: string;
  /** Ends open streams and stops listening. */
  close(): Promise<void>;
}

/** A prompt whose first word plays one behaviour of the scripted kernel (any other text: a short demo answer). */
export interface ScriptedKernelPrompt {
  readonly keyword: string;
  readonly description: string;
}

/** What the first word of a user message makes the scripted kernel do (docs/extending.md#try-it). */
export const SCRIPTED_KERNEL_PROMPTS: readonly ScriptedKernelPrompt[] = KERNEL_SCRIPT_KEYWORDS.map(
  ({ keyword, description }) => ({ keyword, description }),
);

/**
 * An A2A 1.0 server in this process that answers as the iac-code kernel does on the wire, from scripts
 * (the demo agent of `npm start`): for a host's tests and trials, never for production. No model, no
 * network beyond the listening socket.
 */
export function startScriptedKernel(options: ScriptedKernelOptions = {}): Promise<ScriptedKernel> {
  return startKernelServer({
    host: options.host,
    port: options.port,
    token: options.token,
    maxTasks: options.maxTasks,
  });
}
