/**
 * Faults a test arms for the next calls of one JSON-RPC method, so resume and retry paths meet a
 * kernel that rejects, answers nothing, or fails (docs/behaviour/interrupts.md#forwarding-answers "Any failure before acceptance leaves
 * the interrupt pending"). An armed call never reaches the SDK: the message is not applied.
 */

export const INJECTED_FAULT_MODES = ['rpc-error', 'empty-stream', 'http-500'] as const;
export type InjectedFaultMode = (typeof INJECTED_FAULT_MODES)[number];

/** Methods whose answer is an event stream; `empty-stream` only makes sense for them. */
export const STREAMING_METHODS: readonly string[] = ['SendStreamingMessage', 'SubscribeToTask'];

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface InjectedFault {
  readonly method: string;
  readonly mode: InjectedFaultMode;
  /** How many calls it applies to; default 1. */
  readonly times: number;
  /** The `error` of an `rpc-error` answer; default -32603 Internal error. */
  readonly error: JsonRpcErrorObject;
  /**
   * Milliseconds to hold the call before answering (default 0): lets the task move on meanwhile, e.g.
   * complete between the gateway's GetTask and its failing SubscribeToTask.
   */
  readonly delayMs: number;
}

/** The longest hold a test may ask for: a fault must never outlive the test's timeout. */
export const MAX_INJECTED_DELAY_MS = 10_000;

export const DEFAULT_INJECTED_ERROR: JsonRpcErrorObject = { code: -32603, message: 'Internal error' };

/** Reads `{method, mode, times?, error?, delayMs?}`; a string says what is wrong. */
export function parseInjectedFault(body: unknown): InjectedFault | string {
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const { method, mode, times = 1, error = DEFAULT_INJECTED_ERROR, delayMs = 0 } = request;
  if (typeof method !== 'string' || method === '') return 'method must be a JSON-RPC method name';
  if (!(INJECTED_FAULT_MODES as readonly unknown[]).includes(mode))
    return `mode must be one of ${INJECTED_FAULT_MODES.join(', ')}`;
  if (mode === 'empty-stream' && !STREAMING_METHODS.includes(method))
    return `empty-stream needs a streaming method (${STREAMING_METHODS.join(', ')})`;
  if (!Number.isInteger(times) || (times as number) < 1) return 'times must be a positive integer';
  if (!Number.isInteger(delayMs) || (delayMs as number) < 0 || (delayMs as number) > MAX_INJECTED_DELAY_MS)
    return `delayMs must be an integer from 0 to ${MAX_INJECTED_DELAY_MS}`;
  const rpcError = error as Partial<JsonRpcErrorObject> | null;
  if (typeof rpcError?.code !== 'number' || typeof rpcError.message !== 'string')
    return 'error must be {code: number, message: string, data?}';
  return {
    method,
    mode: mode as InjectedFaultMode,
    times: times as number,
    error: {
      code: rpcError.code,
      message: rpcError.message,
      ...('data' in rpcError ? { data: rpcError.data } : {}),
    },
    delayMs: delayMs as number,
  };
}

export class KernelFaultInjector {
  private armed: { fault: InjectedFault; remaining: number }[] = [];

  arm(fault: InjectedFault): void {
    this.armed.push({ fault, remaining: fault.times });
  }

  clear(): void {
    this.armed = [];
  }

  /** The fault for this call of `method`, consuming one use; oldest armed first. */
  take(method: string): InjectedFault | undefined {
    const entry = this.armed.find((armed) => armed.fault.method === method);
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining === 0) this.armed = this.armed.filter((armed) => armed !== entry);
    return entry.fault;
  }
}
