import type { RedisLockTimings } from './redis-thread-lock';

/** Timings of the Redis store. Not environment settings: the defaults suit production; tests shorten them. */
export interface RedisThreadStoreOptions extends RedisLockTimings {
  /** TTL of a run lease: how long a crashed replica keeps its thread busy. Renewed at a third of it. */
  readonly leaseTtlMs: number;
  /** Bound on one Redis command, so an unreachable Redis answers 503 instead of hanging a request. */
  readonly commandTimeoutMs: number;
}

/** Injection token; override it in tests (`overrideProvider(REDIS_THREAD_STORE_OPTIONS)`). */
export const REDIS_THREAD_STORE_OPTIONS = Symbol('REDIS_THREAD_STORE_OPTIONS');

export const DEFAULT_REDIS_THREAD_STORE_OPTIONS: RedisThreadStoreOptions = {
  leaseTtlMs: 15_000,
  lockTtlMs: 5_000,
  // Longer than the default CancelTask bound (IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS = 10) a cancel holds it for.
  lockWaitMs: 15_000,
  commandTimeoutMs: 5_000,
};
