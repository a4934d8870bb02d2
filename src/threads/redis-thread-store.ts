import { randomUUID } from 'node:crypto';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import Redis, { ReplyError } from 'ioredis';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { ConfigError } from '../config/load-config';
import { redactCredentials, urlPasswords } from '../logging/redact-credentials';
import { defineThreadScripts, type ScriptedRedis } from './redis-scripted-client';
import { judgeRedisDurability, type RedisDurabilitySettings } from './redis-durability';
import { redisCancelChannel, redisThreadKeys } from './redis-thread-keys';
import { acquireRedisLock } from './redis-thread-lock';
import type { RedisThreadStoreOptions } from './redis-thread-store-options';
import {
  IS_THREAD_CLUSTER,
  type ThreadCluster,
  type ThreadClusterLock,
  type ThreadWriteCondition,
  type ThreadWriteOutcome,
  type VersionedThread,
} from './thread-cluster';
import { serializeThreadState, validateThreadState, type ThreadState } from './thread-state';
import type { ThreadStore } from './thread-store';

export interface RedisConnectionSettings {
  readonly redisUrl: string;
  readonly keyPrefix: string;
  /** IAC_CODE_AGUI_REDIS_TLS; a `rediss://` URL turns TLS on by itself. */
  readonly tls: boolean;
}

interface CancelMessage {
  readonly threadId: string;
  readonly executionId: string;
  readonly origin: string;
}

/**
 * Thread state on Redis, for several replicas serving one thread space (docs/architecture.md#decisions). One hash per
 * thread holds the docs/behaviour/state.md#the-document document (the same canonical JSON as the file store) and its version; the registry
 * writes it only by compare-and-set, claims the run lease in the same atomic step, and fences a run's writes
 * with the lease token it got. Loads read the thread only (load on demand, docs/behaviour/state.md#atomic-writes).
 */
export class RedisThreadStore implements ThreadStore, ThreadCluster, OnApplicationShutdown {
  readonly [IS_THREAD_CLUSTER] = true;
  readonly leaseRenewMs: number;
  readonly leaseTtlMs: number;
  private readonly logger = new Logger(RedisThreadStore.name);
  private readonly client: ScriptedRedis;
  private subscriber?: Redis;
  private subscribed: Promise<void> = Promise.resolve();
  private isClosed = false;
  private readonly cancelListeners: ((threadId: string, executionId: string) => void)[] = [];
  /** Tells this replica's own cancel broadcasts apart: the registry has already ended its local run. */
  private readonly origin = randomUUID();

  constructor(
    private readonly settings: RedisConnectionSettings,
    private readonly options: RedisThreadStoreOptions,
  ) {
    this.leaseTtlMs = options.leaseTtlMs;
    this.leaseRenewMs = Math.max(1, Math.floor(options.leaseTtlMs / 3));
    this.client = defineThreadScripts(
      new Redis(settings.redisUrl, {
        ...(settings.tls ? { tls: {} } : {}),
        // Fail a command instead of queueing it forever while Redis is away: the request answers 503.
        maxRetriesPerRequest: 1,
        commandTimeout: options.commandTimeoutMs,
        connectionName: 'agui-a2a-gateway',
      }),
    );
    this.client.on('error', (error: Error) =>
      this.logger.warn({
        msg: 'Redis connection error',
        code: ErrorCode.STATE_UNAVAILABLE,
        error: this.logText(error),
      }),
    );
  }

  async load(threadId: string): Promise<ThreadState | undefined> {
    return (await this.read(threadId)).state;
  }

  /** Unconditional replace (the ThreadStore contract); the registry itself writes through `write`. */
  async save(state: ThreadState): Promise<void> {
    const { document } = redisThreadKeys(this.settings.keyPrefix, state.threadId);
    const text = serializeThreadState(state);
    await this.guard(
      this.client.multi().hset(document, 'document', text).hincrby(document, 'version', 1).exec(),
    );
  }

  async checkReady(): Promise<void> {
    if ((await this.guard(this.client.ping())) !== 'PONG') throw unavailable(new Error('no PONG'));
  }

  /**
   * The boot check of docs/behaviour/state.md#redis-durability: a Redis without AOF or with an evicting
   * policy stops the start (ConfigError) unless `allowVolatile` (IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE), which
   * starts with a warning. A server that refuses CONFIG, or does not answer yet, is logged as unchecked.
   */
  async verifyDurability(allowVolatile: boolean): Promise<void> {
    let settings: RedisDurabilitySettings;
    try {
      settings = await this.durabilitySettings();
    } catch (error) {
      this.logger.warn({
        msg: 'Redis durability not checked: Redis did not answer at start',
        code: ErrorCode.STATE_UNAVAILABLE,
        error: this.logText(error),
      });
      return;
    }
    const verdict = judgeRedisDurability(settings);
    if (verdict.kind === 'durable') return;
    if (verdict.kind === 'unverifiable') {
      this.logger.warn({
        msg: 'Redis durability not checked: the server refuses CONFIG GET; it must run with appendonly yes and maxmemory-policy noeviction',
      });
      return;
    }
    const problems = verdict.problems.join('; ');
    if (!allowVolatile) {
      throw new ConfigError(
        `IAC_CODE_AGUI_REDIS_URL: Redis would lose announced interrupts (${problems}). Run it with appendonly yes and maxmemory-policy noeviction, or set IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE=true to start anyway.`,
      );
    }
    this.logger.warn({
      msg: 'Redis is not durable: a Redis restart or eviction loses announced interrupts and run leases (IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE=true)',
      problems: verdict.problems,
    });
  }

  /** `CONFIG GET` of the two settings; an error reply (CONFIG renamed or not allowed) leaves a setting unknown. */
  private async durabilitySettings(): Promise<RedisDurabilitySettings> {
    const setting = async (name: string): Promise<string | undefined> => {
      try {
        const reply = (await this.client.config('GET', name)) as string[];
        return reply[1];
      } catch (error) {
        if (error instanceof ReplyError) return undefined;
        throw error;
      }
    };
    const [appendonly, maxmemoryPolicy] = await Promise.all([
      setting('appendonly'),
      setting('maxmemory-policy'),
    ]);
    return {
      ...(appendonly === undefined ? {} : { appendonly }),
      ...(maxmemoryPolicy === undefined ? {} : { maxmemoryPolicy }),
    };
  }

  async read(threadId: string): Promise<VersionedThread> {
    const keys = redisThreadKeys(this.settings.keyPrefix, threadId);
    const replies = await this.guard(
      this.client.multi().hmget(keys.document, 'document', 'version').exists(keys.lease).exec(),
    );
    const [[documentError, fields], [leaseError, leased]] = replies as [
      [Error | null, [string | null, string | null]],
      [Error | null, number],
    ];
    if (documentError || leaseError) throw unavailable(documentError ?? leaseError);
    const [text, version] = fields;
    return {
      state: text === null ? undefined : parseDocument(text, threadId),
      version: Number(version ?? 0),
      isLeased: leased === 1,
    };
  }

  async write(
    state: ThreadState,
    expectedVersion: number,
    condition: ThreadWriteCondition = {},
  ): Promise<ThreadWriteOutcome> {
    const keys = redisThreadKeys(this.settings.keyPrefix, state.threadId);
    const [mode, argument] =
      condition.claimForRun !== undefined
        ? (['claim', condition.claimForRun] as const)
        : condition.fenceToken !== undefined
          ? (['fence', condition.fenceToken] as const)
          : (['plain', ''] as const);
    const [outcome, version, leaseToken] = await this.guard(
      this.client.aguiWriteThread(
        keys.document,
        keys.lease,
        expectedVersion,
        serializeThreadState(state),
        mode,
        argument,
        this.options.leaseTtlMs,
      ),
    );
    if (outcome === 'written') return { kind: 'written', version, ...(leaseToken ? { leaseToken } : {}) };
    if (outcome === 'conflict' || outcome === 'busy' || outcome === 'fenced') return { kind: outcome };
    throw unavailable(new Error(`unexpected write outcome ${outcome}`));
  }

  lock(threadId: string): Promise<ThreadClusterLock> {
    const { lock } = redisThreadKeys(this.settings.keyPrefix, threadId);
    return acquireRedisLock(this.client, lock, this.options, this.logger);
  }

  async renewLease(threadId: string, leaseToken: string): Promise<boolean> {
    const { lease } = redisThreadKeys(this.settings.keyPrefix, threadId);
    return (await this.guard(this.client.aguiRenewIfHeld(lease, leaseToken, this.options.leaseTtlMs))) === 1;
  }

  async releaseLease(threadId: string, leaseToken: string): Promise<void> {
    const { lease } = redisThreadKeys(this.settings.keyPrefix, threadId);
    await this.guard(this.client.aguiReleaseIfHeld(lease, leaseToken));
  }

  async publishCancel(threadId: string, executionId: string): Promise<void> {
    const message: CancelMessage = { threadId, executionId, origin: this.origin };
    await this.guard(
      this.client.publish(redisCancelChannel(this.settings.keyPrefix), JSON.stringify(message)),
    );
  }

  /**
   * Pub/sub rather than the lease holder polling: the run on another replica ends at once, and a message
   * lost while a replica reconnects costs only the original's behaviour (docs/behaviour/cancel.md#cancel-route caveat: the run
   * ends when A2A reports the task cancelled).
   */
  onCancelPublished(listener: (threadId: string, executionId: string) => void): void {
    this.cancelListeners.push(listener);
    if (this.subscriber) return;
    const channel = redisCancelChannel(this.settings.keyPrefix);
    this.subscriber = this.client.duplicate();
    this.subscriber.on('error', (error: Error) =>
      this.logger.warn({ msg: 'Redis subscriber error', error: this.logText(error) }),
    );
    this.subscriber.on('message', (from: string, text: string) => {
      if (from !== channel) return;
      const message = parseCancelMessage(text);
      if (!message || message.origin === this.origin) return;
      for (const notify of this.cancelListeners) notify(message.threadId, message.executionId);
    });
    this.subscribed = this.subscriber.subscribe(channel).then(
      () => undefined,
      (error: unknown) =>
        this.logger.error({ msg: 'subscribing to the cancel channel failed', error: this.logText(error) }),
    );
  }

  /** Resolves once the cancel subscription is confirmed: before that, another replica's cancel is missed. */
  whenSubscribed(): Promise<void> {
    return this.subscribed;
  }

  /** Idempotent: the store is also bound as THREAD_CLUSTER, so Nest calls this twice. */
  async onApplicationShutdown(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    // A SUBSCRIBE still in flight would leave its command timer behind the closed connection.
    await this.subscribed;
    await Promise.all(
      [this.client, this.subscriber].map((connection) =>
        connection?.quit().catch(() => connection.disconnect()),
      ),
    );
  }

  /** Drops both connections without releasing anything: what a crashed replica leaves in Redis (tests). */
  disconnectWithoutCleanup(): void {
    this.client.disconnect();
    this.subscriber?.disconnect();
  }

  /** An error's text for a log line: ioredis messages may carry the connection string. */
  private logText(error: unknown): string {
    const text = error instanceof Error ? error.message : String(error);
    return redactCredentials(text, urlPasswords(this.settings.redisUrl));
  }

  private async guard<T>(command: Promise<T>): Promise<T> {
    try {
      return await command;
    } catch (error) {
      throw unavailable(error);
    }
  }
}

function parseDocument(text: string, threadId: string): ThreadState {
  try {
    return validateThreadState(JSON.parse(text), threadId);
  } catch (error) {
    throw unavailable(error);
  }
}

function parseCancelMessage(text: string): CancelMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<CancelMessage>;
    return typeof value.threadId === 'string' &&
      typeof value.executionId === 'string' &&
      typeof value.origin === 'string'
      ? (value as CancelMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

function unavailable(cause: unknown): AguiError {
  if (cause instanceof AguiError) return cause;
  return new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause });
}
