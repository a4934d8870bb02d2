import { isSessionBackupNotReady } from './sdk-a2a-gateway';

/**
 * Whether an upstream failure is the kernel's retryable "session backup still syncing" (reference §5.6,
 * T-APP 8): a JSON-RPC error whose `data` is `{code: "SESSION_BACKUP_NOT_READY", retryable: true}`. The SDK
 * puts `data` on its error, or on the error's `cause` when the error frame came mid-stream.
 */
export function isUpstreamBackupNotReady(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    if (typeof current !== 'object') return false;
    const { data, cause } = current as { data?: unknown; cause?: unknown };
    if (isSessionBackupNotReady(data)) return true;
    current = cause;
  }
  return false;
}
