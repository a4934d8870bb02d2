import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import type { Clock } from '../common/clock';
import type { Language } from '../i18n/message-catalogue';
import { followRedisRun } from './redis-run-follower';
import { RedisRunLogKeys, sequenceOf } from './redis-run-log-keys';
import type { ReattachLimits } from '../config/app-config';
import type { ThreadState } from '../threads/thread-state';
import type { EventFrame } from '../wire/sse-frame';
import type { FrameSink } from './frame-sink';
import type { RunFollower } from './follow-run';
import type { RetainedRunIdentity } from './retained-run';
import type { SharedRun, SharedRunLog } from './shared-run-log';

export interface RedisRunLogSettings {
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly tls: boolean;
  /**
   * How long the owner's mark outlives its last refresh (the run lease's TTL): once it expired, the owner is
   * gone and the readers elsewhere end.
   */
  readonly ownerLeaseMs: number;
  /** The language of the RUN_OWNER_LOST message: the process's (a reader's own is not known here). */
  readonly language: Language;
}

/** A running run's keys outlive a replica that died without ending it by this much past the window. */
const RUNNING_TTL_EXTRA_MS = 60_000;

/**
 * The shared run log on Redis Streams: one stream per run (`<prefix>runlog:<token>:events`), entry id
 * `<sequence>-0` per frame and `<last>-1` for the end, capped with `XADD MAXLEN` at the per-run event bound;
 * a record per run found by thread and by execution; a sorted set of the readers on other replicas, each
 * scored with when the window would end for it (refreshed while it follows, set once as it leaves; `GT`,
 * so a late refresh never shortens it); the owner's mark, alive while its replica is. Every key has a TTL:
 * the window after the run's end, a little more while it runs. Readers follow with `XREAD BLOCK` on a
 * connection of their own (redis-run-follower.ts); the key names are redis-run-log-keys.ts's.
 */
export class RedisRunLog implements SharedRunLog {
  private readonly logger = new Logger(RedisRunLog.name);
  private readonly client: Redis;
  private readonly keys: RedisRunLogKeys;
  private hasWarned = false;
  /** The owner marks of the runs this replica runs, refreshed until each ends. */
  private readonly ownerMarks = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly settings: RedisRunLogSettings,
    private readonly limits: ReattachLimits,
    private readonly clock: Clock,
  ) {
    this.keys = new RedisRunLogKeys(settings.keyPrefix);
    this.client = new Redis(settings.redisUrl, {
      ...(settings.tls ? { tls: {} } : {}),
      maxRetriesPerRequest: 1,
      connectionName: 'agui-a2a-gateway-run-log',
    });
    this.client.on('error', (error: Error) => this.warn('Redis connection error', error));
  }

  started(identity: RetainedRunIdentity): void {
    const record = JSON.stringify({
      threadId: identity.threadId,
      runId: identity.runId,
      executionId: identity.executionId,
      runToken: identity.runToken,
      admittedState: identity.admittedState,
    });
    const ttl = this.runningTtlMs();
    const owner = this.keys.owner(identity.runToken);
    const { ownerLeaseMs } = this.settings;
    this.send(
      this.client
        .multi()
        .set(this.keys.thread(identity.threadId), record, 'PX', ttl)
        .set(this.keys.execution(identity.executionId), record, 'PX', ttl)
        .set(owner, '1', 'PX', ownerLeaseMs),
    );
    const refresh = setInterval(
      // SET, not PEXPIRE: a mark that expired while Redis was away is made again once it is back.
      () => this.send(this.client.multi().set(owner, '1', 'PX', ownerLeaseMs)),
      Math.max(1, Math.floor(ownerLeaseMs / 3)),
    );
    refresh.unref();
    this.ownerMarks.set(identity.runToken, refresh);
  }

  appended(identity: RetainedRunIdentity, sequence: number, frame: EventFrame): void {
    const events = this.keys.events(identity.runToken);
    const pipeline = this.client
      .pipeline()
      .xadd(
        events,
        'MAXLEN',
        String(this.limits.maxEventsPerRun),
        `${sequence}-0`,
        'id',
        frame.id,
        'data',
        frame.data,
      );
    // The TTLs are refreshed now and then, not at every event.
    if (sequence % 64 === 1) this.refresh(pipeline, identity, this.runningTtlMs());
    this.send(pipeline);
  }

  ended(identity: RetainedRunIdentity, lastSequence: number): void {
    this.unmark(identity.runToken);
    const pipeline = this.client
      .pipeline()
      .xadd(this.keys.events(identity.runToken), `${lastSequence}-1`, 'end', '1');
    this.refresh(pipeline, identity, this.limits.graceMs);
    pipeline.pexpire(this.keys.owner(identity.runToken), this.limits.graceMs);
    this.send(pipeline);
  }

  dropped(identity: RetainedRunIdentity): void {
    this.unmark(identity.runToken);
    this.send(
      this.client
        .multi()
        .del(
          this.keys.events(identity.runToken),
          this.keys.readers(identity.runToken),
          this.keys.owner(identity.runToken),
        )
        .eval(
          DELETE_IF_OURS,
          2,
          this.keys.thread(identity.threadId),
          this.keys.execution(identity.executionId),
          identity.runToken,
        ),
    );
  }

  async find(
    target: { readonly executionId: string } | { readonly threadId: string },
  ): Promise<SharedRun | undefined> {
    const key =
      'executionId' in target ? this.keys.execution(target.executionId) : this.keys.thread(target.threadId);
    const text = await this.client.get(key);
    if (!text) return undefined;
    const identity = JSON.parse(text) as RetainedRunIdentity & { admittedState: ThreadState };
    const events = this.keys.events(identity.runToken);
    const [first, last, owners] = await Promise.all([
      this.client.xrange(events, '-', '+', 'COUNT', 1),
      this.client.xrevrange(events, '+', '-', 'COUNT', 1),
      this.client.exists(this.keys.owner(identity.runToken)),
    ]);
    // A run whose owner is gone before its end is over for every reader (docs/behaviour/reattach.md#on-any-replica).
    if (owners === 0) return undefined;
    const lastSequence = last.length > 0 ? sequenceOf(last[0][0]) : 0;
    const firstHeld = first.length > 0 ? sequenceOf(first[0][0]) : lastSequence + 1;
    return {
      identity,
      firstHeld: first.length > 0 && first[0][0].endsWith('-1') ? firstHeld + 1 : firstHeld,
      lastSequence,
    };
  }

  async remoteWindowLeftMs(runToken: string): Promise<number> {
    // Each reader's score is when the window would end for it: refreshed while it follows, set once as it leaves.
    const latest = await this.client.zrevrange(this.keys.readers(runToken), 0, 0, 'WITHSCORES');
    return latest.length < 2 ? 0 : Math.max(0, Number(latest[1]) - this.clock.now());
  }

  follow(run: SharedRun, sequence: number, sink: FrameSink): RunFollower {
    return followRedisRun(
      {
        client: this.client,
        keys: this.keys,
        limits: this.limits,
        clock: this.clock,
        language: this.settings.language,
        runningTtlMs: this.runningTtlMs(),
        warn: (msg, error) => this.warn(msg, error),
      },
      run,
      sequence,
      sink,
    );
  }

  private unmark(runToken: string): void {
    clearInterval(this.ownerMarks.get(runToken));
    this.ownerMarks.delete(runToken);
  }

  async onModuleDestroy(): Promise<void> {
    for (const runToken of [...this.ownerMarks.keys()]) this.unmark(runToken);
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private refresh(
    pipeline: ReturnType<Redis['pipeline']>,
    identity: RetainedRunIdentity,
    ttlMs: number,
  ): void {
    pipeline
      .pexpire(this.keys.events(identity.runToken), ttlMs)
      .pexpire(this.keys.thread(identity.threadId), ttlMs)
      .pexpire(this.keys.execution(identity.executionId), ttlMs);
  }

  private runningTtlMs(): number {
    return this.limits.graceMs + RUNNING_TTL_EXTRA_MS;
  }

  private send(batch: { exec(): Promise<unknown> }): void {
    batch.exec().catch((error: unknown) => this.warn('Redis write failed', error));
  }

  private warn(msg: string, error: unknown): void {
    // Once per process: a Redis that is away would otherwise log every event of every run.
    if (this.hasWarned) return;
    this.hasWarned = true;
    this.logger.warn({
      msg: `run log: ${msg}`,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** Deletes the run's records unless a newer run of the thread or execution replaced them. */
const DELETE_IF_OURS = `
for i = 1, 2 do
  local record = redis.call('GET', KEYS[i])
  if record and string.find(record, '"runToken":"' .. ARGV[1] .. '"', 1, true) then redis.call('DEL', KEYS[i]) end
end
return 1`;
