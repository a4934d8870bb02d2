import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../src/common/clock';
import { RedisThreadStore } from '../../src/threads/redis-thread-store';
import { DEFAULT_REDIS_THREAD_STORE_OPTIONS } from '../../src/threads/redis-thread-store-options';
import { ThreadAdmissionService } from '../../src/threads/thread-admission.service';
import { ThreadRegistry } from '../../src/threads/thread-registry';
import { ThreadRunState } from '../../src/threads/thread-run-state';
import { canonicalDigest } from '../../src/wire/canonical-digest';
import { startRedisServer } from '../../test/support/redis-server';
import { latencyFigures, type LatencyFigures } from './paced-latency';

export interface RedisStateLatencyResult {
  readonly store: 'redis';
  readonly threads: number;
  /**
   * The whole admission as a replica does it: Redis lock, read (document + lease), digest + decision,
   * compare-and-set that claims the lease, unlock — one sample per turn, two turns per thread.
   */
  readonly admission: LatencyFigures;
  /** A run's write: lock, read, fenced compare-and-set, unlock (what "persist before announcing" waits for). */
  readonly write: LatencyFigures;
  /** Freeing the run lease at the end of a turn. */
  readonly release: LatencyFigures;
}

const clock: Clock = { now: () => Date.now(), uuid: () => randomUUID() };

function request(threadId: string, runId: string) {
  const rawBody = JSON.stringify({
    threadId,
    runId,
    state: {},
    tools: [],
    context: [],
    messages: [
      { id: `m-${runId}`, role: 'user', content: 'Create an OSS bucket in cn-hangzhou, 费用最低 😀' },
    ],
    forwardedProps: { iacCode: { schemaVersion: 1, rosInvocationId: `inv-${runId}`, cwd: '/srv/ws' } },
  });
  return {
    threadId,
    runId,
    digest: canonicalDigest(rawBody),
    cwd: '/srv/ws',
    userId: null,
    rosInvocationId: `inv-${runId}`,
    isResume: false,
  };
}

/**
 * State on Redis ("Done when": admission and state-write latency next to the file store): a
 * throw-away loopback `redis-server`, one in-process replica (registry + admission over RedisThreadStore),
 * `threads` threads × two turns, each turn admitted, one run write (the session id), then released.
 */
export async function measureRedisStateLatency(threads: number): Promise<RedisStateLatencyResult> {
  const redis = await startRedisServer();
  const store = new RedisThreadStore(
    { redisUrl: redis.url, keyPrefix: 'bench:', tls: false },
    DEFAULT_REDIS_THREAD_STORE_OPTIONS,
  );
  const registry = new ThreadRegistry(store, store);
  const admission = new ThreadAdmissionService(registry, clock);
  const logger = new Logger('bench');
  const samples = { admission: [] as number[], write: [] as number[], release: [] as number[] };
  try {
    for (const runId of ['run-1', 'run-2']) {
      for (let index = 0; index < threads; index++) {
        const threadId = `thread-${index}`;
        const started = performance.now();
        const { state } = await admission.admit(request(threadId, runId));
        const admitted = performance.now();
        const run = new ThreadRunState(registry, state, runId, logger);
        await run.write((current) => ({ ...current, iacCodeSessionId: `session-${index}` }));
        const written = performance.now();
        await run.release();
        const released = performance.now();
        samples.admission.push((admitted - started) * 1000);
        samples.write.push((written - admitted) * 1000);
        samples.release.push((released - written) * 1000);
      }
    }
    return {
      store: 'redis',
      threads,
      admission: latencyFigures(samples.admission),
      write: latencyFigures(samples.write),
      release: latencyFigures(samples.release),
    };
  } finally {
    registry.onApplicationShutdown();
    await store.onApplicationShutdown();
    await redis.close();
  }
}
