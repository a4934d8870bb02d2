import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { runError } from '../events/run-events';
import { MessageCatalogue, type Language } from '../i18n/message-catalogue';
import { encodeSseFrame } from '../wire/sse-frame';
import { formatCursor } from './event-cursor';
import { sequenceOf, type RedisRunLogKeys } from './redis-run-log-keys';
import type { ReattachLimits } from '../config/app-config';
import type { FrameSink } from './frame-sink';
import type { RunFollower } from './follow-run';
import type { SharedRun } from './shared-run-log';

/** How long one XREAD BLOCK waits before the reader checks that the run and its owner still exist. */
const BLOCK_MS = 2000;
/** Entries one XREAD returns at most. */
const READ_COUNT = 512;

/** What a reader on another replica needs of the shared run log it follows. */
export interface RedisRunFollowing {
  /** The log's own connection (a reader blocks on a duplicate of it). */
  readonly client: Redis;
  readonly keys: RedisRunLogKeys;
  readonly limits: ReattachLimits;
  readonly clock: Clock;
  /** The language of the RUN_OWNER_LOST message: the process's (a reader's own is not known here). */
  readonly language: Language;
  /** How long a running run's keys live (the readers set is kept that long while a reader follows). */
  readonly runningTtlMs: number;
  readonly warn: (msg: string, error: unknown) => void;
}

/**
 * Follows a run of another replica from after `sequence` with `XREAD BLOCK` on a connection of its own. The
 * reader is a member of the run's readers set, scored with when the window would end for it: refreshed while
 * it follows, set once as it leaves (`GT`, so a late refresh never shortens it).
 */
export function followRedisRun(
  log: RedisRunFollowing,
  run: SharedRun,
  sequence: number,
  sink: FrameSink,
): RunFollower {
  const { client, keys, limits, clock } = log;
  const { runToken } = run.identity;
  const reader = randomUUID();
  const readers = keys.readers(runToken);
  const blocking = client.duplicate();
  blocking.on('error', () => undefined);
  let isStopped = false;
  const present = () =>
    void client
      .multi()
      .zadd(readers, 'GT', clock.now() + limits.graceMs, reader)
      .pexpire(readers, log.runningTtlMs)
      .exec()
      .catch((error: unknown) => log.warn('Redis write failed', error));
  present();
  const presence = setInterval(present, Math.max(1, Math.floor(limits.graceMs / 3)));
  presence.unref();
  const follow = async () => {
    const events = keys.events(runToken);
    let after = sequence;
    while (!isStopped) {
      const answer = await blocking.xread(
        'COUNT',
        READ_COUNT,
        'BLOCK',
        BLOCK_MS,
        'STREAMS',
        events,
        `${after}-0`,
      );
      if (isStopped) return;
      if (!answer) {
        const [hasEvents, hasOwner] = await Promise.all([
          client.exists(events),
          client.exists(keys.owner(runToken)),
        ]);
        if (hasEvents === 0) return sink.abort(new Error('the run log is gone'));
        if (hasOwner === 0) return ownerLost(log, runToken, after, sink);
        continue;
      }
      for (const [id, fields] of answer[0][1]) {
        if (id.endsWith('-1')) return sink.end();
        const next = sequenceOf(id);
        // Trimmed at the bound before this reader read it: cut, never a stream with a hole.
        if (next !== after + 1) return sink.abort(new Error('the reader fell behind the event log'));
        sink.write({ id: fields[1], data: fields[3] });
        after = next;
        const writable = sink.whenWritable();
        if (writable) await writable;
        if (isStopped) return;
      }
    }
  };
  const done = follow()
    .catch((error: unknown) => {
      if (!isStopped) sink.abort(error);
    })
    .finally(() => {
      isStopped = true;
      clearInterval(presence);
      blocking.disconnect();
      // The window counts from this moment for this reader (docs/behaviour/reattach.md#on-any-replica).
      void client.zadd(readers, 'GT', clock.now() + limits.graceMs, reader).catch(() => undefined);
    });
  return {
    done,
    stop: () => {
      isStopped = true;
      blocking.disconnect();
    },
  };
}

/**
 * The owner's mark expired before the run's end: the replica that ran it is gone. The reader gets a
 * terminal RUN_ERROR RUN_OWNER_LOST, after the last event it had, and its stream ends.
 */
function ownerLost(log: RedisRunFollowing, runToken: string, after: number, sink: FrameSink): void {
  const event = runError(
    ErrorCode.RUN_OWNER_LOST,
    new MessageCatalogue().render('runOwnerLost', log.language),
    undefined,
    log.clock.now(),
  );
  sink.write({ id: formatCursor(runToken, after + 1), data: encodeSseFrame(event) });
  sink.end();
}
