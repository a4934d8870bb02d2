import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AguiError } from '../common/agui-error';
import { SystemClock, type Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { redactCredentials, urlPasswords } from '../logging/redact-credentials';
import { defineThreadScripts, type ScriptedRedis } from './redis-scripted-client';
import { RedisCancelChannel } from './redis-cancel-channel';
import { watchRedisConnection } from './redis-connection-log';
import { readDurabilitySettings, RedisDurabilityGate } from './redis-durability-gate';
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
import { ThreadStoreNotReadyError, type ThreadStore } from './thread-store';

export interface RedisConnectionSettings {
  readonly redisUrl: string;
  readonly keyPrefix: string;
  /** IAC_CODE_AGUI_REDIS_TLS; a `rediss://` URL turns TLS on by itself. */
  readonly tls: boolean;
  /** IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE: a Redis without AOF or with an evicting policy is flagged, not refused. */
  readonly allowVolatile?: boolean;
}

/**
 * Thread state on Redis, for several replicas serving one thread space (docs/architecture.md#decisions). One hash per
 * thread holds the docs/behaviour/state.md#the-document document (the same canonical JSON as the file store) and its version; the registry
 * writes it only by compare-and-set, claims the run lease in the same atomic step, and fences a run's writes
 * with the lease token it got. Loads read the thread only (load on demand, docs/behaviour/state.md#atomic-writes).
 * What lives on a connection — the durability check, the cancel subscription, the scripts (ioredis loads
 * them on each new socket: EVAL first, EVALSHA after) — is set up again at every reconnect
 * (docs/behaviour/state.md#redis-connection-life).
 */
export class RedisThreadStore implements ThreadStore, ThreadCluster, OnApplicationShutdown {
  readonly [IS_THREAD_CLUSTER] = true;
  readonly leaseRenewMs: number;
  readonly leaseTtlMs: number;
  private readonly logger = new Logger(RedisThreadStore.name);
  private readonly client: ScriptedRedis;
  private readonly durability: RedisDurabilityGate;
  private readonly cancels: RedisCancelChannel;
  private isClosed = false;

  constructor(
    private readonly settings: RedisConnectionSettings,
    private readonly options: RedisThreadStoreOptions,
    clock: Clock = new SystemClock(),
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
    const logText = (error: unknown) => this.logText(error);
    this.durability = new RedisDurabilityGate(
      () => readDurabilitySettings(this.client),
      settings.allowVolatile ?? false,
      this.logger,
    );
    watchRedisConnection(this.client, {
      name: 'commands',
      logger: this.logger,
      logText,
      isClosed: () => this.isClosed,
      clock,
      // A failed check keeps the last verdict; the next reconnect or readiness probe checks again.
      onReady: () => void this.durability.check().catch(() => undefined),
    });
    this.cancels = new RedisCancelChannel(
      this.client,
      redisCancelChannel(settings.keyPrefix),
      this.logger,
      logText,
      () => this.isClosed,
      clock,
    );
  }

  async load(threadId: string): Promise<ThreadState | undefined> {
    return (await this.read(threadId)).state;
  }

  /** Unconditional replace (the ThreadStore contract); the registry itself writes through `write`. */
  async save(state: ThreadState): Promise<void> {
    await this.durability.admit();
    const { document } = redisThreadKeys(this.settings.keyPrefix, state.threadId);
    const text = serializeThreadState(state);
    await this.guard(
      this.client.multi().hset(document, 'document', text).hincrby(document, 'version', 1).exec(),
    );
  }

  /** Not ready until connected and a durability check has passed, then a PING. */
  async checkReady(): Promise<void> {
    if (!(await this.isConnected())) throw new ThreadStoreNotReadyError('Redis is not connected');
    await this.durability.admit();
    if ((await this.guard(this.client.ping())) !== 'PONG') throw unavailable(new Error('no PONG'));
  }

  /**
   * The boot check of docs/behaviour/state.md#redis-durability: a Redis without AOF or with an evicting
   * policy stops the start (ConfigError) unless `allowVolatile`, which starts with a warning. A server that
   * refuses CONFIG is logged as unchecked; one that does not answer yet leaves the replica not ready.
   */
  verifyDurability(): Promise<void> {
    return this.durability.checkAtBoot((error) => this.logText(error));
  }

  /**
   * Not gated by the durability check: a read changes nothing, and a run whose lease is found gone reads the
   * document to tell a takeover from a lost state. What admits work — the thread lock — is gated.
   */
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

  /** Every admission, cancel, expiry and run write takes it first: nothing is admitted until a durability check passed. */
  async lock(threadId: string): Promise<ThreadClusterLock> {
    await this.durability.admit();
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
    await this.guard(this.cancels.publish(threadId, executionId));
  }

  onCancelPublished(listener: (threadId: string, executionId: string) => void): void {
    this.cancels.listen(listener);
  }

  /** Resolves once the cancel subscription is confirmed: before that, another replica's cancel is missed. */
  whenSubscribed(): Promise<void> {
    return this.cancels.whenSubscribed();
  }

  /** Idempotent: the store is also bound as THREAD_CLUSTER, so Nest calls this twice. */
  async onApplicationShutdown(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    await Promise.all([this.cancels.close(), this.client.quit().catch(() => this.client.disconnect())]);
  }

  /** Drops both connections without releasing anything: what a crashed replica leaves in Redis (tests). */
  disconnectWithoutCleanup(): void {
    this.client.disconnect();
    this.cancels.disconnect();
  }

  /** Connected now, or once the connection attempt in progress succeeds (the readiness deadline bounds it). */
  private isConnected(): Promise<boolean> {
    const { status } = this.client;
    if (status === 'ready') return Promise.resolve(true);
    if (status !== 'connecting' && status !== 'connect') return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (isReady: boolean) => {
        this.client.off('ready', onReady).off('close', onClose);
        resolve(isReady);
      };
      const onReady = () => settle(true);
      const onClose = () => settle(false);
      this.client.once('ready', onReady).once('close', onClose);
    });
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

function unavailable(cause: unknown): AguiError {
  if (cause instanceof AguiError) return cause;
  return new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause });
}
