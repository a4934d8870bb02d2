import { existsSync, mkdtempSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IacCodeProcess } from '../../src/a2a/managed/iac-code-process';
import type { Json } from './interrupt-helpers';
import type { ScriptedLlm } from './scripted-llm/scripted-llm-server';

const REPO_ROOT = path.resolve(__dirname, '../..');

/** The locked kernel venv (built by scripts/kernel-venv.sh); IAC_CODE_KERNEL_VENV points elsewhere. */
export const KERNEL_VENV = process.env.IAC_CODE_KERNEL_VENV || path.join(REPO_ROOT, '.kernel-venv');
export const KERNEL_BIN = path.join(KERNEL_VENV, 'bin');

/** The model name the kernel is configured with, unless a run overrides it. */
export const KERNEL_MODEL = 'scripted-model';
export const KERNEL_API_KEY = 'sk-kernel-default';

/** A cold kernel imports a large Python tree: on a loaded machine it has needed over 20 s. */
export const KERNEL_START_TIMEOUT_MS = 120_000;
/** A safety net per case, not a bound under test: a kernel's first turn still imports modules (seconds). */
export const KERNEL_CASE_TIMEOUT_MS = 90_000;

/**
 * The real-kernel suites never skip: a missing kernel is a failed setup with the fix in the message.
 * Returns the `iac-code` executable of the venv.
 */
export function requireKernel(): string {
  const executable = path.join(KERNEL_BIN, 'iac-code');
  if (!existsSync(executable)) {
    throw new Error(
      `The iac-code kernel is missing: ${executable} does not exist. Run scripts/kernel-venv.sh ` +
        '(or point IAC_CODE_KERNEL_VENV at a venv built from kernel/requirements.txt).',
    );
  }
  return executable;
}

/** Directories of one kernel: its config dir (task snapshots, sessions), HOME, and the allowed workspace root. */
export interface KernelDirectories {
  readonly configDir: string;
  readonly home: string;
  readonly workspaceRoot: string;
}

export function kernelDirectories(configDir?: string): KernelDirectories {
  const root = mkdtempSync(path.join(os.tmpdir(), 'agui-kernel-'));
  const dirs = {
    configDir: configDir ?? path.join(root, 'config'),
    home: path.join(root, 'home'),
    workspaceRoot: path.join(root, 'workspaces'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return dirs;
}

/**
 * What the kernel reads to talk to an OpenAI-compatible model (iac_code/config.py `_get_env_overrides`), its
 * own config dir, and telemetry off: with telemetry on, each stream lingers for seconds after the turn.
 */
export function kernelEnvironment(llm: ScriptedLlm, dirs: KernelDirectories): Record<string, string> {
  return {
    PATH: [KERNEL_BIN, '/usr/local/bin', '/usr/bin', '/bin'].join(path.delimiter),
    HOME: dirs.home,
    IAC_CODE_PROVIDER: 'openai_compatible',
    IAC_CODE_BASE_URL: llm.baseUrl,
    IAC_CODE_API_KEY: KERNEL_API_KEY,
    IAC_CODE_MODEL: KERNEL_MODEL,
    IAC_CODE_CONFIG_DIR: dirs.configDir,
    IACCODE_A2A_ALLOWED_CWDS: dirs.workspaceRoot,
    DISABLE_TELEMETRY: '1',
    IAC_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

export interface RealKernel {
  readonly url: string;
  readonly token: string;
  /** Kernel output (stdout and stderr), for the failure message of a test. */
  readonly output: string[];
  /** The kernel's own view of a task (`GetTask`): `status.state` and the rest, as JSON. */
  getTask(taskId: string): Promise<Json>;
  stop(): Promise<void>;
}

/**
 * `iac-code a2a` from the venv, started the way the gateway's managed mode starts it (the same
 * IacCodeProcess: free loopback port, fresh token, readiness on `/health`), for the URL upstream mode.
 */
export async function startRealKernel(llm: ScriptedLlm, dirs: KernelDirectories): Promise<RealKernel> {
  const output: string[] = [];
  const child = new IacCodeProcess({
    executable: requireKernel(),
    environment: kernelEnvironment(llm, dirs),
    readinessTimeoutMs: KERNEL_START_TIMEOUT_MS,
    logger: {
      debug: (line: string) => void output.push(line),
      log: (line: string) => void output.push(line),
      error: (line: string) => void output.push(line),
    },
  });
  const url = await child.start();
  return {
    url,
    token: child.token,
    output,
    getTask: (taskId) => getKernelTask(url, child.token, taskId),
    stop: () => child.stop(),
  };
}

/** `GetTask` on the kernel's JSON-RPC endpoint; returns the task (the kernel answers it as `result`). */
export async function getKernelTask(url: string, token: string, taskId: string): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'test-get-task', method: 'GetTask', params: { id: taskId } }),
  });
  const body = (await response.json()) as Json;
  if (body.error) throw new Error(`GetTask ${taskId} failed: ${JSON.stringify(body.error)}`);
  return body.result as Json;
}
