import type { BaseEvent } from '@ag-ui/core';
import { rmSync } from 'node:fs';
import * as os from 'node:os';
import { RedisThreadStore } from '../../src/threads/redis-thread-store';
import { THREAD_STORE } from '../../src/threads/thread-store';
import { startRedisServer, type RunningRedis } from '../support/redis-server';
import { runInput } from '../support/run-input';
import { openEvents, openRun } from '../support/sse-client';
import { buildServiceForTests, startServiceProcess } from '../support/service-process';
import { useGateway } from '../support/use-gateway';

const LEASE_TTL_SECONDS = 3;
/** AGUI_OWNER_LOST_TRIES sets how many owners are killed (default 3; the measurement runs 20). */
const TRIES = Number(process.env.AGUI_OWNER_LOST_TRIES ?? 3);
/**
 * A try fails once its reader has gone this long after the SIGKILL without its terminal event: the
 * documented bound (lease TTL + 5 s) plus a margin for a loaded machine, so a hang fails that try at once
 * rather than the whole test at its timeout.
 */
const TRY_BOUND_MS = (LEASE_TTL_SECONDS + 5) * 1000 + 10_000;

/** `promise`, or a failure naming `what` once `deadline` (epoch ms) has passed. */
async function beforeDeadline<T>(promise: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
const isTerminal = (event: BaseEvent) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR';

/**
 * Redis mode (docs/behaviour/reattach.md#on-any-replica): the replica that runs a turn is a real process,
 * SIGKILLed mid-run; a reader of that turn on another replica ends with the documented terminal event
 * within the lease TTL plus 5 s, and a reattach after that is refused. One real redis-server.
 */
let redis: RunningRedis;
let buildDir: string;
beforeAll(async () => {
  [redis, buildDir] = await Promise.all([startRedisServer(), buildServiceForTests()]);
}, 200_000);
afterAll(async () => {
  await redis?.close();
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
});

const sharedEnv = () => ({
  IAC_CODE_AGUI_STATE_STORE: 'redis',
  IAC_CODE_AGUI_REDIS_URL: redis.url,
  IAC_CODE_AGUI_REDIS_KEY_PREFIX: 'owner-lost:',
  IAC_CODE_AGUI_REDIS_LEASE_TTL_SECONDS: String(LEASE_TTL_SECONDS),
  IAC_CODE_AGUI_REATTACH_SECONDS: '30',
});
const replicas = useGateway({ upstream: true, env: sharedEnv, startBeforeAll: false });

describe('a replica SIGKILLed mid-run, its reader on another replica', () => {
  it(`ends with RUN_ERROR RUN_OWNER_LOST within the lease TTL + 5 s, and a reattach after it is refused (${TRIES} tries)`, async () => {
    const reader = await replicas.start();
    await reader.app.get<RedisThreadStore>(THREAD_STORE).whenSubscribed();
    const endedAfterMs: number[] = [];
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const owner = await startServiceProcess(buildDir, {
        ...sharedEnv(),
        IAC_CODE_AGUI_A2A_URL: replicas.upstream.url,
        IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
      });
      const threadId = `owner-lost-${attempt}`;
      const run = openRun(owner.url, runInput({ threadId, runId: `run-${attempt}`, text: 'slow' }));
      await run.waitForEvent((event) => event.type === 'TEXT_MESSAGE_CONTENT');
      const byThread = `${reader.url}extensions/iac-code/v1/threads/${threadId}/events?rosInvocationId=invocation-1`;
      const follower = openEvents(byThread);
      await follower.waitForEvent((event) => event.type === 'TEXT_MESSAGE_CONTENT');
      const killedAt = Date.now();
      owner.signal('SIGKILL');
      await owner.exited;
      run.abort();
      const deadline = killedAt + TRY_BOUND_MS;
      const hang = `try ${attempt + 1}: the reader had no terminal event ${TRY_BOUND_MS} ms after the SIGKILL`;
      // A hang lets the reader go (nothing else would end its request) and fails this try.
      const bounded = <T>(promise: Promise<T>, what: string) =>
        beforeDeadline(promise, deadline, what).catch((error: unknown) => {
          follower.abort();
          throw error;
        });
      // A stream that ends without one is not waited for: the checks below tell what it lacked.
      await bounded(Promise.race([follower.waitForEvent(isTerminal), follower.finished]), hang);
      const endedAfter = Date.now() - killedAt;
      endedAfterMs.push(endedAfter);
      process.stdout.write(
        `try ${attempt + 1}/${TRIES}: terminal event ${endedAfter} ms after the SIGKILL\n`,
      );
      const followed = await bounded(
        follower.finished,
        `try ${attempt + 1}: the reader's stream did not end`,
      );
      expect(followed.events.at(-1)).toEqual(
        expect.objectContaining({ type: 'RUN_ERROR', code: 'RUN_OWNER_LOST' }),
      );
      expect(followed.events.filter((event: BaseEvent) => event.type === 'RUN_ERROR')).toHaveLength(1);
      const refused = await fetch(byThread);
      expect(refused.status).toBe(404);
    }
    process.stdout.write(`reader ended after the owner's SIGKILL (ms): ${endedAfterMs.join(', ')}\n`);
    expect(endedAfterMs.filter((ms) => ms > (LEASE_TTL_SECONDS + 5) * 1000)).toEqual([]);
  }, 600_000);
});
