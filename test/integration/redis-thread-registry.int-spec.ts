import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import type { Clock } from '../../src/common/clock';
import { ErrorCode } from '../../src/common/error-code';
import { canonicalDigest } from '../../src/wire/canonical-digest';
import { redisThreadKeys } from '../../src/threads/redis-thread-keys';
import { RedisThreadStore } from '../../src/threads/redis-thread-store';
import { DEFAULT_REDIS_THREAD_STORE_OPTIONS } from '../../src/threads/redis-thread-store-options';
import {
  ThreadAdmissionService,
  type ThreadAdmissionRequest,
} from '../../src/threads/thread-admission.service';
import { ThreadRegistry } from '../../src/threads/thread-registry';
import { ThreadRunState } from '../../src/threads/thread-run-state';
import { startRedisServer, type RunningRedis } from '../support/redis-server';
import { deferred } from '../support/deferred';

/** ThreadRegistry in cluster mode: two "replicas" (registry + store each) on one Redis, no HTTP in between. */
let redis: RunningRedis;
let raw: Redis;
let prefixCount = 0;
const stores: RedisThreadStore[] = [];
const registries: ThreadRegistry[] = [];

/** Short (a test waits twice it), yet a renewal (every third of it) lands in time on a loaded machine. */
const LEASE_TTL_MS = 1_000;
const clock: Clock = { now: () => 1_750_000_000_000, uuid: () => randomUUID() };
const logger = new Logger('redis-thread-registry.int-spec');

function replicas(count: number) {
  const keyPrefix = `reg${++prefixCount}:`;
  return {
    keyPrefix,
    nodes: Array.from({ length: count }, () => {
      const store = new RedisThreadStore(
        { redisUrl: redis.url, keyPrefix, tls: false },
        {
          ...DEFAULT_REDIS_THREAD_STORE_OPTIONS,
          leaseTtlMs: LEASE_TTL_MS,
          lockTtlMs: 500,
          lockWaitMs: 3_000,
        },
      );
      stores.push(store);
      const registry = new ThreadRegistry(store, store);
      registries.push(registry);
      return { store, registry, admission: new ThreadAdmissionService(registry, clock) };
    }),
  };
}

const request = (threadId: string, runId: string): ThreadAdmissionRequest => ({
  threadId,
  runId,
  digest: canonicalDigest(JSON.stringify({ threadId, runId })),
  cwd: '/srv/ws',
  userId: null,
  rosInvocationId: 'invocation-1',
  isResume: false,
});

beforeAll(async () => {
  redis = await startRedisServer();
  raw = new Redis(redis.url);
});
afterEach(async () => {
  for (const registry of registries.splice(0)) registry.onApplicationShutdown(); // stop lease renewals
  await Promise.all(stores.splice(0).map((store) => store.onApplicationShutdown()));
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.close();
});

describe('ThreadRegistry on Redis', () => {
  it('admits exactly one of many concurrent admissions from three replicas; the rest get THREAD_BUSY', async () => {
    const { nodes } = replicas(3);
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) =>
        nodes[index % 3].admission.admit(request('t', `run-${index}`)),
      ),
    );
    const admitted = results.filter((result) => result.status === 'fulfilled');
    expect(admitted).toHaveLength(1);
    const codes = results.flatMap((result) => (result.status === 'rejected' ? [result.reason.code] : []));
    expect(codes).toEqual(Array(29).fill(ErrorCode.THREAD_BUSY));
    expect(nodes.reduce((sum, node) => sum + node.registry.activeRunCount, 0)).toBe(1);
  });

  it('retries an admission whose compare-and-set lost, and decides again on what the winner wrote', async () => {
    const { nodes } = replicas(2);
    const [a, b] = nodes;
    const first = await a.admission.admit(request('t', 'run-1'));
    await a.registry.release('t', 'run-1');
    // B's read happens, then A writes behind B's back before B's write: B's first CAS must lose.
    const realRead = b.store.read.bind(b.store);
    let isFirstRead = true;
    jest.spyOn(b.store, 'read').mockImplementation(async (threadId) => {
      const seen = await realRead(threadId);
      if (isFirstRead) {
        isFirstRead = false;
        await a.store.save({
          ...first.state,
          runDigests: { ...first.state.runDigests, 'run-x': 'e'.repeat(64) },
        });
      }
      return seen;
    });
    const second = await b.admission.admit(request('t', 'run-2'));
    expect(Object.keys(second.state.runDigests).sort()).toEqual(['run-1', 'run-2', 'run-x']);
    expect((await a.store.read('t')).version).toBe(3);
  });

  it('ends the run on the replica that streams it when another replica cancels its execution', async () => {
    const { nodes } = replicas(2);
    const [a, b] = nodes;
    await Promise.all(nodes.map((node) => node.store.whenSubscribed()));
    const { state } = await a.admission.admit(request('t', 'run-1'));
    const cancelled: string[] = [];
    const reached = deferred();
    a.registry.onCancel('t', 'run-1', (executionId) => {
      cancelled.push(executionId);
      reached.resolve();
    });
    b.registry.cancelActiveRun('t', state.execution.executionId, new AbortController().signal);
    await reached.promise; // the broadcast arrived on the streaming replica
    expect(cancelled).toEqual([state.execution.executionId]);
  });

  it('a cancel made on another replica resolves once the streaming replica gave its lease back, or at its bound', async () => {
    const { nodes } = replicas(2);
    const [a, b] = nodes;
    await Promise.all(nodes.map((node) => node.store.whenSubscribed()));
    const cancelOnB = (threadId: string, executionId: string, bound: AbortSignal) =>
      // Wrapped: a promise returned from the lock's work would be waited for under the lock.
      b.registry.withLock(threadId, async () => {
        await b.registry.load(threadId);
        return { freed: b.registry.cancelActiveRun(threadId, executionId, bound) };
      });

    const { state } = await a.admission.admit(request('t', 'run-1'));
    const heard = deferred();
    a.registry.onCancel('t', 'run-1', () => heard.resolve());
    const order: string[] = [];
    const { freed } = await cancelOnB('t', state.execution.executionId, AbortSignal.timeout(30_000));
    const done = freed.then(() => order.push('freed'));
    await heard.promise;
    await a.registry.release('t', 'run-1');
    order.push('released');
    await done;
    expect(order).toEqual(['released', 'freed']);
    const isBusyForB = await b.registry.withLock('t', async () => {
      await b.registry.load('t');
      return b.registry.isBusy('t');
    });
    expect(isBusyForB).toBe(false);

    // A replica that never lets go (it is frozen, or dead until its lease expires): the bound ends the wait.
    const held = await a.admission.admit(request('u', 'run-1'));
    const bound = new AbortController();
    const stillHeld = await cancelOnB('u', held.state.execution.executionId, bound.signal);
    bound.abort();
    await stillHeld.freed;
    expect((await b.store.read('u')).isLeased).toBe(true);
  });

  it('keeps the lease while the run streams, and refuses the writes of a run that lost it', async () => {
    const { nodes, keyPrefix } = replicas(2);
    const [a, b] = nodes;
    const { state } = await a.admission.admit(request('t', 'run-1'));
    const run = new ThreadRunState(a.registry, state, 'run-1', logger);
    // A timer on purpose: the lease's TTL is the behaviour; past 2 × TTL only its renewal can have kept it.
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_TTL_MS));
    await expect(b.admission.admit(request('t', 'run-2'))).rejects.toMatchObject({
      code: ErrorCode.THREAD_BUSY,
    });
    await run.write((current) => ({ ...current, iacCodeSessionId: 'session-1' }));
    expect((await b.store.read('t')).state?.iacCodeSessionId).toBe('session-1');

    // The lease disappears (as after a long pause of this replica): the run's next write is fenced, which
    // is a lost lease (not a conflict, not Redis away), and from then on the run may not act on the kernel.
    await raw.del(redisThreadKeys(keyPrefix, 't').lease);
    await expect(run.write((current) => ({ ...current, iacCodeSessionId: 'late' }))).rejects.toMatchObject({
      code: ErrorCode.THREAD_TAKEN_OVER,
    });
    await expect(run.ensureLease()).rejects.toMatchObject({ code: ErrorCode.THREAD_TAKEN_OVER });
    expect((await b.store.read('t')).state?.iacCodeSessionId).toBe('session-1');
    await run.release();
  });

  it('releases the lease only after the run’s writes in flight, so the next turn is admitted at once', async () => {
    const { nodes } = replicas(2);
    const [a, b] = nodes;
    const { state } = await a.admission.admit(request('t', 'run-1'));
    const run = new ThreadRunState(a.registry, state, 'run-1', logger);
    const marking = run.markTerminal();
    await run.release();
    await marking;
    expect((await b.store.read('t')).state?.terminalExecutionIds).toEqual([state.execution.executionId]);
    await expect(b.admission.admit(request('t', 'run-2'))).resolves.toMatchObject({
      state: { runDigests: { 'run-1': expect.any(String), 'run-2': expect.any(String) } },
    });
  });
});
