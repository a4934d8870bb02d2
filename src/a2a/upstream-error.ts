import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { isSessionBackupNotReady } from './sdk-a2a-gateway';

/**
 * Whether an upstream failure is the kernel's retryable "session backup still syncing" (reference §5.6,
 * T-APP 8): a JSON-RPC error whose `data` is `{code: "SESSION_BACKUP_NOT_READY", retryable: true}`. The SDK
 * puts `data` on its error, or on the error's `cause` when the error frame came mid-stream.
 */
export function isUpstreamBackupNotReady(error: unknown): boolean {
  return someInCauseChain(error, (current) => isSessionBackupNotReady((current as { data?: unknown }).data));
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
