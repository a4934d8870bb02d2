import { randomUUID } from 'node:crypto';
import type { Logger } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { redactCredentials } from '../logging/redact-credentials';
import type { ScriptedRedis } from './redis-scripted-client';
import type { ThreadClusterLock } from './thread-cluster';

export interface RedisLockTimings {
  /** TTL of the lock key: how long a crashed holder blocks the thread at most. Renewed at a third of it. */
  readonly lockTtlMs: number;
  /** How long to wait for the lock before answering 503 (a cancel may hold it across a bounded CancelTask). */
  readonly lockWaitMs: number;
}

/** Short and jittered: the lock is held for a few round trips, and two waiters must not retry in step. */
const RETRY_MIN_MS = 2;
const RETRY_JITTER_MS = 8;

/**
 * The per-thread mutex of docs/behaviour/state.md#atomic-writes ("one in-process async lock"), made cluster-wide: SET NX PX with a
 * random token, renewed while held so a long critical section (a cancel's CancelTask) keeps it, released
 * only by its own token. The compare-and-set on the document stays the safety net if a lock ever expires.
 */
export async function acquireRedisLock(
  client: ScriptedRedis,
  key: string,
  timings: RedisLockTimings,
  logger: Logger,
): Promise<ThreadClusterLock> {
  const token = randomUUID();
  // Counted waits instead of a clock: pure enough, and the bound is what matters, not its precision.
  for (let waited = 0; ;) {
    const answer = await client.set(key, token, 'PX', timings.lockTtlMs, 'NX').catch((cause: unknown) => {
      throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause });
    });
    if (answer === 'OK') break;
    if (waited >= timings.lockWaitMs) throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
    const pause = RETRY_MIN_MS + Math.floor(Math.random() * RETRY_JITTER_MS);
    await new Promise((resolve) => setTimeout(resolve, pause));
    waited += pause;
  }
  const renewal = setInterval(
    () => {
      client
        .aguiRenewIfHeld(key, token, timings.lockTtlMs)
        .catch((error: unknown) =>
          logger.warn({ msg: 'renewing a thread lock failed', key, error: redactCredentials(String(error)) }),
        );
    },
    Math.max(1, Math.floor(timings.lockTtlMs / 3)),
  );
  renewal.unref();
  return {
    release: async () => {
      clearInterval(renewal);
      // Best effort: an unreleased lock expires after lockTtlMs.
      await client.aguiReleaseIfHeld(key, token).catch((error: unknown) =>
        logger.warn({
          msg: 'releasing a thread lock failed',
          key,
          error: redactCredentials(String(error)),
        }),
      );
    },
  };
}
