import { isJsonRpcError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { isSessionBackupNotReady } from './sdk-a2a-gateway';

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

/**
 * The refusal for a message the kernel did not take (an interrupt answer, a guidance message): the
 * retryable backup-not-ready, "rejected" only for a JSON-RPC error object, and for an HTTP or transport
 * failure the kernel being unavailable.
 */
export function rejectionOf(error: unknown): AguiError {
  if (isUpstreamBackupNotReady(error))
    return new AguiError(ErrorCode.SESSION_BACKUP_NOT_READY, 'sessionBackupNotReady', { cause: error });
  const key = isUpstreamRpcError(error) ? 'interruptResponseRejected' : 'a2aUnavailable';
  return new AguiError(ErrorCode.A2A_UNAVAILABLE, key, { cause: error });
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
