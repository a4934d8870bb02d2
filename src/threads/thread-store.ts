import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { ThreadState } from './thread-state';

/** Injection token of the thread store (CONTRIBUTING.md): consumers write `@Inject(THREAD_STORE)`. */
export const THREAD_STORE = Symbol('THREAD_STORE');

/**
 * Durable per-thread state (docs/behaviour/state.md). Implementations: `FileThreadStore` (embedded default) and a
 * Redis store for scale-out; every one runs the contract of `agui-a2a-gateway/testing` (`threadStoreContractCases`).
 * Every failure is `AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable')` (503), scoped to the
 * thread it concerns. Caching, the per-thread lock and the busy slot live in the registry, not here.
 */
export interface ThreadStore {
  /** The thread's state, or undefined if it has none. Reads that thread only (load on demand, docs/behaviour/state.md#atomic-writes). */
  load(threadId: string): Promise<ThreadState | undefined>;
  /** Replaces the thread's state atomically: a reader sees the old or the new document, never a mix. */
  save(state: ThreadState): Promise<void>;
  /**
   * Resolves when the store can write (readiness probe); rejects with STATE_UNAVAILABLE otherwise — a
   * ThreadStoreNotReadyError when it can say why, which `/health/ready` reports as its reason.
   */
  checkReady(): Promise<void>;
}

/**
 * STATE_UNAVAILABLE with the reason `/health/ready` shows (an open route: the reason names settings or a
 * state, never a secret).
 */
export class ThreadStoreNotReadyError extends AguiError {
  constructor(
    readonly reason: string,
    cause?: unknown,
  ) {
    super(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', cause === undefined ? undefined : { cause });
    this.name = 'ThreadStoreNotReadyError';
  }
}

/** The errno under a store failure (its cause chain), if the failure came from the file system. */
export function errnoOfStoreFailure(error: unknown): NodeJS.ErrnoException | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (typeof (cause as NodeJS.ErrnoException).code === 'string' && !(cause instanceof AguiError)) {
      return cause as NodeJS.ErrnoException;
    }
  }
  return undefined;
}

/**
 * What readiness says of a failed store probe: the errno and path of a file system failure
 * (`unavailable: EACCES /var/lib/agui/threads/…`), or `unavailable` alone.
 */
export function storeFailureReason(error: unknown): string {
  const errno = errnoOfStoreFailure(error);
  if (!errno) return 'unavailable';
  return errno.path ? `unavailable: ${errno.code} ${errno.path}` : `unavailable: ${errno.code}`;
}
