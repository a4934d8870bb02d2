import { isJsonRpcError, TaskNotFoundError } from '@a2a-js/sdk/errors';

/**
 * Predicates over what the A2A client throws; what each failure ends a run with is the table of
 * src/runs/upstream-failure.ts (docs/behaviour/a2a.md#kernel-failures).
 */

/**
 * Whether an upstream failure is the kernel's retryable "session backup still syncing" (docs/behaviour/interrupts.md#forwarding-answers,
 *): a JSON-RPC error whose `data` is `{code: "SESSION_BACKUP_NOT_READY", retryable: true}`. The SDK
 * puts `data` on its error, or on the error's `cause` when the error frame came mid-stream.
 */
export function isUpstreamBackupNotReady(error: unknown): boolean {
  return someInCauseChain(error, (current) => isSessionBackupNotReady((current as { data?: unknown }).data));
}

/**
 * Whether the kernel answered with a JSON-RPC error object (it reports a rejection so, with HTTP 200),
 * as opposed to a transport failure or an HTTP error status, which mean the kernel is unavailable.
 */
export function isUpstreamRpcError(error: unknown): boolean {
  return someInCauseChain(error, isJsonRpcError);
}

/** A JSON-RPC call the kernel answered with a non-2xx HTTP status, whatever the body said. */
export class UpstreamHttpError extends Error {
  constructor(readonly status: number) {
    super(`the A2A kernel answered HTTP ${status}`);
    this.name = 'UpstreamHttpError';
  }
}

/**
 * The SDK turns a non-2xx answer that carries a JSON-RPC body into the same error as a JSON-RPC error
 * sent with HTTP 200, so the status is lost. The published adapter treats any HTTP failure as the kernel
 * being unavailable; failing the fetch itself keeps that distinction.
 */
export function failingOnHttpErrors(fetchImpl: typeof fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetchImpl(input, init);
    if (response.ok) return response;
    await response.body?.cancel().catch(() => undefined);
    throw new UpstreamHttpError(response.status);
  }) as typeof fetch;
}

/**
 * Whether the kernel answered that the task does not exist (A2A TaskNotFoundError, JSON-RPC -32001): it has
 * forgotten it, e.g. after a restart. Timeouts, resets and other errors are not this: they may pass.
 */
export function isTaskGone(error: unknown): boolean {
  return someInCauseChain(error, (current) => current instanceof TaskNotFoundError);
}

/** `error` or one of its first causes (the gateway wraps some SDK errors once) satisfies `test`. */
function someInCauseChain(error: unknown, test: (current: object) => boolean): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    if (typeof current !== 'object') return false;
    if (test(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The kernel's retryable "backup still syncing" answer (docs/behaviour/a2a.md#the-kernels-own-behaviour), as an
 * ensure-restored body `{error: {code, retryable}}` or as JSON-RPC error data `{code, retryable}`.
 */
export function isSessionBackupNotReady(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const candidate = (record.error ?? record) as Record<string, unknown>;
  return candidate?.code === 'SESSION_BACKUP_NOT_READY' && candidate.retryable === true;
}
