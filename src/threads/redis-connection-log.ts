import type { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';

/**
 * One connection's life in the log (docs/behaviour/state.md#redis-connection-life): one line when it is lost
 * (or cannot be made at start), none for each retry while Redis is away, one when it is back — with how long
 * it was away and how many tries it took. `onReady` runs at every (re)connect: what is set up on a
 * connection (a subscription, the durability check) is set up again there.
 */
export interface RedisConnectionWatch {
  /** Which connection the lines are about (`commands`, `cancel channel`). */
  readonly name: string;
  readonly logger: Logger;
  /** An error's text without the connection string's password. */
  readonly logText: (error: unknown) => string;
  readonly onReady: () => void;
  /** True once the store shuts down: closing is then no news. */
  readonly isClosed: () => boolean;
  /** What the time away and the wait at start are measured with. */
  readonly clock: Clock;
}

export function watchRedisConnection(connection: Redis, watch: RedisConnectionWatch): void {
  const { name, logger, logText, onReady, isClosed, clock } = watch;
  let downSince: number | undefined = clock.now();
  let hasConnected = false;
  let attempts = 0;
  connection.on('ready', () => {
    if (hasConnected && downSince !== undefined) {
      logger.log({
        msg: 'Redis connection back',
        connection: name,
        awayMs: clock.now() - downSince,
        attempts,
      });
    } else if (!hasConnected && attempts > 0) {
      logger.log({
        msg: 'Redis connected',
        connection: name,
        waitedMs: clock.now() - (downSince ?? 0),
        attempts,
      });
    }
    hasConnected = true;
    downSince = undefined;
    attempts = 0;
    onReady();
  });
  connection.on('reconnecting', () => (attempts += 1));
  connection.on('close', () => {
    if (downSince !== undefined || isClosed()) return;
    downSince = clock.now();
    logger.warn({
      msg: 'Redis connection lost; reconnecting',
      connection: name,
      code: ErrorCode.STATE_UNAVAILABLE,
    });
  });
  connection.on('error', (error: Error) => {
    // While Redis is away every retry fails: the loss was logged once, and so is the first failure at start.
    if (downSince !== undefined && (hasConnected || attempts > 0)) return;
    logger.warn({
      msg: hasConnected ? 'Redis connection error' : 'Redis not reachable yet; retrying',
      connection: name,
      code: ErrorCode.STATE_UNAVAILABLE,
      error: logText(error),
    });
  });
}
