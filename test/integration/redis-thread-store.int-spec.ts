import Redis from 'ioredis';
import { ErrorCode } from '../../src/common/error-code';
import { redisThreadKeys } from '../../src/threads/redis-thread-keys';
import { RedisThreadStore } from '../../src/threads/redis-thread-store';
import {
  DEFAULT_REDIS_THREAD_STORE_OPTIONS,
  type RedisThreadStoreOptions,
} from '../../src/threads/redis-thread-store-options';
import { threadClusterContractCases } from '../../src/testing';
import { deferred } from '../support/deferred';
import { startRedisServer, type RunningRedis } from '../support/redis-server';
import { describeThreadStoreContract, sampleThreadState } from '../support/thread-store.contract';

/** RedisThreadStore on a real redis-server: the shared ThreadStore contract, then compare-and-set and leases. */
let redis: RunningRedis;
let raw: Redis;
let prefixCount = 0;
const openStores: RedisThreadStore[] = [];

/**
 * Short TTLs (the timed tests wait a small multiple of them), yet long enough that a renewal on a loaded
 * machine — timers late by hundreds of milliseconds — still lands before expiry.
 */
const TTL_MS = 1_000;
const FAST: RedisThreadStoreOptions = {
  ...DEFAULT_REDIS_THREAD_STORE_OPTIONS,
  leaseTtlMs: TTL_MS,
  lockTtlMs: TTL_MS,
  lockWaitMs: 2_000,
};

function newStore(keyPrefix = `t${++prefixCount}:`, options = FAST): RedisThreadStore {
  const store = new RedisThreadStore({ redisUrl: redis.url, keyPrefix, tls: false }, options);
  openStores.push(store);
  return store;
}

beforeAll(async () => {
  redis = await startRedisServer();
  raw = new Redis(redis.url);
});
afterEach(async () => {
  await Promise.all(openStores.splice(0).map((store) => store.onApplicationShutdown()));
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.close();
});

describeThreadStoreContract('RedisThreadStore', async () => {
  const keyPrefix = `contract${++prefixCount}:`;
  const store = newStore(keyPrefix);
  return {
    store,
    cleanup: () => store.onApplicationShutdown(),
    corrupt: async (threadId) => {
      await raw.hset(redisThreadKeys(keyPrefix, threadId).document, 'document', '{"schemaVersion": 1, trunc');
    },
  };
});

describe('RedisThreadStore (exported ThreadCluster contract, two replicas)', () => {
  for (const contractCase of threadClusterContractCases(async () => {
    const keyPrefix = `cluster${++prefixCount}:`;
    const replicas = [newStore(keyPrefix), newStore(keyPrefix)] as const;
    return {
      replicas,
      cleanup: async () => undefined,
      listening: async () => void (await Promise.all(replicas.map((replica) => replica.whenSubscribed()))),
    };
  }))
    it(contractCase.name, contractCase.run);
});

describe('RedisThreadStore compare-and-set', () => {
  it('writes only against the version it read, and bumps the version by one', async () => {
    const store = newStore();
    expect(await store.read('thread-1')).toEqual({ state: undefined, version: 0, isLeased: false });
    await expect(store.write(sampleThreadState('thread-1', 'v1'), 0)).resolves.toEqual({
      kind: 'written',
      version: 1,
    });
    await expect(store.write(sampleThreadState('thread-1', 'stale'), 0)).resolves.toEqual({
      kind: 'conflict',
    });
    await expect(store.write(sampleThreadState('thread-1', 'v2'), 1)).resolves.toEqual({
      kind: 'written',
      version: 2,
    });
    expect(await store.read('thread-1')).toEqual({
      state: sampleThreadState('thread-1', 'v2'),
      version: 2,
      isLeased: false,
    });
  });

  it('lets exactly one of 50 concurrent writers on one version win, from two connections', async () => {
    const keyPrefix = `race${++prefixCount}:`;
    const replicas = [newStore(keyPrefix), newStore(keyPrefix)];
    await replicas[0].write(sampleThreadState('thread-race', 'base'), 0);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        replicas[index % 2].write(sampleThreadState('thread-race', `w${index}`), 1, {
          claimForRun: `run-${index}`,
        }),
      ),
    );
    const winners = outcomes.flatMap((outcome, index) => (outcome.kind === 'written' ? [index] : []));
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === 'conflict')).toHaveLength(49);
    const after = await replicas[1].read('thread-race');
    expect(after).toEqual({
      state: sampleThreadState('thread-race', `w${winners[0]}`),
      version: 2,
      isLeased: true,
    });
  });
});

describe('RedisThreadStore run leases', () => {
  it('claims once, refuses a second claim (busy), fences writes by token and frees on release', async () => {
    const store = newStore();
    const first = await store.write(sampleThreadState('thread-1', 'a'), 0, { claimForRun: 'run-a' });
    expect(first).toMatchObject({ kind: 'written', version: 1, leaseToken: '1:run-a' });
    const token = (first as { leaseToken: string }).leaseToken;
    await expect(
      store.write(sampleThreadState('thread-1', 'b'), 1, { claimForRun: 'run-b' }),
    ).resolves.toEqual({ kind: 'busy' });
    await expect(store.write(sampleThreadState('thread-1', 'a2'), 1, { fenceToken: token })).resolves.toEqual(
      {
        kind: 'written',
        version: 2,
      },
    );
    await expect(
      store.write(sampleThreadState('thread-1', 'x'), 2, { fenceToken: '7:someone-else' }),
    ).resolves.toEqual({ kind: 'fenced' });
    await store.releaseLease('thread-1', '7:someone-else'); // not the holder: nothing happens
    expect((await store.read('thread-1')).isLeased).toBe(true);
    await store.releaseLease('thread-1', token);
    expect(await store.read('thread-1')).toMatchObject({ version: 2, isLeased: false });
    // The next claim gets a larger fencing token.
    await expect(
      store.write(sampleThreadState('thread-1', 'c'), 2, { claimForRun: 'run-c' }),
    ).resolves.toMatchObject({ kind: 'written', leaseToken: '2:run-c' });
  });

  it('lets an unrenewed lease expire after its TTL, and a renewed one live on', async () => {
    const store = newStore();
    const claimed = (await store.write(sampleThreadState('thread-old', 'a'), 0, { claimForRun: 'r' })) as {
      leaseToken: string;
    };
    const kept = (await store.write(sampleThreadState('thread-kept', 'a'), 0, { claimForRun: 'r' })) as {
      leaseToken: string;
    };
    // A timer on purpose: the lease TTL is the behaviour, renewed here by hand at a fraction of it.
    for (let elapsed = 0; elapsed < 2 * TTL_MS; elapsed += 100) {
      await expect(store.renewLease('thread-kept', kept.leaseToken)).resolves.toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await store.read('thread-old')).isLeased).toBe(false);
    await expect(store.renewLease('thread-old', claimed.leaseToken)).resolves.toBe(false);
    // A lost lease fences the old holder's writes.
    await expect(
      store.write(sampleThreadState('thread-old', 'late'), 1, { fenceToken: claimed.leaseToken }),
    ).resolves.toEqual({ kind: 'fenced' });
    expect((await store.read('thread-kept')).isLeased).toBe(true);
  });
});

describe('RedisThreadStore lock and cancel broadcast', () => {
  it('serialises holders of one thread’s lock across connections, not other threads', async () => {
    const keyPrefix = `lock${++prefixCount}:`;
    const [a, b] = [newStore(keyPrefix), newStore(keyPrefix)];
    const order: string[] = [];
    const held = await a.lock('thread-1');
    const other = await b.lock('thread-2'); // another thread: not blocked
    const waiting = b.lock('thread-1').then((lock) => {
      order.push('b acquired');
      return lock;
    });
    // A timer on purpose: the lock's TTL is the behaviour; past it only the renewal keeps it held.
    await new Promise((resolve) => setTimeout(resolve, 1.5 * TTL_MS));
    order.push('a releases');
    await held.release();
    await (await waiting).release();
    await other.release();
    expect(order).toEqual(['a releases', 'b acquired']);
  });

  it('answers STATE_UNAVAILABLE when the lock is not free within lockWaitMs', async () => {
    const keyPrefix = `lockwait${++prefixCount}:`;
    const holder = newStore(keyPrefix);
    const waiter = newStore(keyPrefix, { ...FAST, lockWaitMs: 100 });
    const held = await holder.lock('thread-1');
    await expect(waiter.lock('thread-1')).rejects.toMatchObject({ code: ErrorCode.STATE_UNAVAILABLE });
    await held.release();
  });

  it('delivers a cancel to the other replicas, not back to its sender', async () => {
    const keyPrefix = `cancel${++prefixCount}:`;
    const [sender, receiver] = [newStore(keyPrefix), newStore(keyPrefix)];
    const seen: Record<string, string[]> = { sender: [], receiver: [] };
    const received = deferred();
    sender.onCancelPublished((threadId, executionId) => seen.sender.push(`${threadId}/${executionId}`));
    receiver.onCancelPublished((threadId, executionId) => {
      seen.receiver.push(`${threadId}/${executionId}`);
      received.resolve();
    });
    await Promise.all([sender.whenSubscribed(), receiver.whenSubscribed()]);
    await sender.publishCancel('thread-1', 'exec-1');
    await received.promise; // the other replica has it
    expect(seen).toEqual({ sender: [], receiver: ['thread-1/exec-1'] });
  });

  it('answers STATE_UNAVAILABLE, not a hang, once Redis is gone', async () => {
    const store = newStore(undefined, { ...FAST, commandTimeoutMs: 500 });
    store.disconnectWithoutCleanup();
    await expect(store.load('thread-1')).rejects.toMatchObject({ code: ErrorCode.STATE_UNAVAILABLE });
    await expect(store.checkReady()).rejects.toMatchObject({ code: ErrorCode.STATE_UNAVAILABLE });
  });
});
