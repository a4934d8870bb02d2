import type { BaseEvent, Interrupt } from '@ag-ui/core';
import Redis from 'ioredis';
import { redisThreadKeys } from '../../src/threads/redis-thread-keys';
import { RedisThreadStore } from '../../src/threads/redis-thread-store';
import {
  DEFAULT_REDIS_THREAD_STORE_OPTIONS,
  REDIS_THREAD_STORE_OPTIONS,
} from '../../src/threads/redis-thread-store-options';
import { THREAD_STORE } from '../../src/threads/thread-store';
import { startRedisServer, type RunningRedis } from '../support/redis-server';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import type { RunningGateway } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';
import type { Json } from '../support/interrupt-helpers';

/**
 * Two gateway replicas sharing one Redis and one scripted kernel ("Done when"): THREAD_BUSY across
 * replicas, an interrupt raised on A answered on B exactly once, cancel from the other replica, a crashed
 * replica's lease expiring, and a race of concurrent admissions that admits exactly one.
 */
/**
 * Long enough that a loaded machine answers a request well inside it (the crashed-replica test checks a
 * refusal while the lease lives), short enough that waiting for its expiry stays cheap.
 */
const LEASE_TTL_MS = 3_000;

let redis: RunningRedis;
let raw: Redis;
let keyPrefix: string;
let prefixCount = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  raw = new Redis(redis.url);
});
/** Replicas on one Redis (each test its own key prefix), closed after the test that started them. */
const replicas = useGateway({
  upstream: true,
  env: () => ({
    IAC_CODE_AGUI_STATE_STORE: 'redis',
    IAC_CODE_AGUI_REDIS_URL: redis.url,
    IAC_CODE_AGUI_REDIS_KEY_PREFIX: keyPrefix,
    IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS: '1',
    IAC_CODE_AGUI_DRAIN_SECONDS: '1',
  }),
  configure: (builder) =>
    builder.overrideProvider(REDIS_THREAD_STORE_OPTIONS).useValue({
      ...DEFAULT_REDIS_THREAD_STORE_OPTIONS,
      leaseTtlMs: LEASE_TTL_MS,
      lockTtlMs: 1_000,
      lockWaitMs: 5_000,
    }),
  startBeforeAll: false,
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.close();
});

async function startReplica(env: Record<string, string> = {}): Promise<RunningGateway> {
  const gateway = await replicas.start(env);
  // A cancel published before the subscription is confirmed would not reach this replica.
  await storeOf(gateway).whenSubscribed();
  return gateway;
}

const storeOf = (gateway: RunningGateway) => gateway.app.get<RedisThreadStore>(THREAD_STORE);

/** The thread's document as Redis holds it. */
async function documentOf(threadId: string): Promise<Json | undefined> {
  const text = await raw.hget(redisThreadKeys(keyPrefix, threadId).document, 'document');
  return text === null ? undefined : (JSON.parse(text) as Json);
}

/** A run that stays open (script `silent`); resolves once its task is bound in Redis (docs/behaviour/state.md#persist-before-announce). */
async function startOpenRun(gateway: RunningGateway, threadId: string, runId = 'run-1') {
  const controller = new AbortController();
  const response = postRun(gateway.url, runInput({ threadId, runId, text: 'silent' }), {
    signal: controller.signal,
  });
  const bound = await eventually(
    () => documentOf(threadId),
    (doc) => Boolean(doc?.execution.taskId),
  );
  if (!bound?.execution.taskId) throw new Error(`run on ${threadId} never bound a task`);
  return {
    executionId: bound.execution.executionId as string,
    taskId: bound.execution.taskId as string,
    response,
    abort: () => controller.abort(),
  };
}

/** POSTs a run and reads only the status (and the body unless it is a stream): for races. */
async function admissionStatus(url: string, body: unknown, signal: AbortSignal) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  const isStream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (response.status === 200 && isStream) return { status: 200, code: undefined };
  return { status: response.status, code: ((await response.json()) as Json).error?.code as string };
}

const fetchCancelAs = (
  gateway: RunningGateway,
  executionId: string,
  threadId: string,
  rosInvocationId: string,
) =>
  fetch(`${gateway.url}extensions/iac-code/v1/executions/${executionId}/cancel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ threadId, rosInvocationId }),
  });
const cancel = (gateway: RunningGateway, executionId: string, threadId: string) =>
  fetchCancelAs(gateway, executionId, threadId, 'invocation-1');

const interruptsOf = (events: BaseEvent[]): Interrupt[] | undefined => {
  const last = events.at(-1) as BaseEvent & { outcome?: { type: string; interrupts?: Interrupt[] } };
  return last?.outcome?.type === 'interrupt' ? last.outcome.interrupts : undefined;
};

/** Messages the kernel received for a task after it started: the interrupt answers (docs/behaviour/interrupts.md#forwarding-answers). */
async function answersTo(taskId: string): Promise<Json[]> {
  return (await replicas.upstream.requests())
    .filter((entry) => entry.rpcMethod === 'SendStreamingMessage' || entry.rpcMethod === 'SendMessage')
    .map((entry) => (entry.body as { params: Json }).params.message as Json)
    .filter((message) => message.taskId === taskId);
}

beforeEach(() => {
  keyPrefix = `scale${++prefixCount}:`;
});

describe('two replicas on one Redis', () => {
  it('answers THREAD_BUSY on B while A streams, and a cancel through B ends A’s run', async () => {
    const [a, b] = [await startReplica(), await startReplica()];
    const open = await startOpenRun(a, 'busy-thread');
    const refused = await postRun(b.url, runInput({ threadId: 'busy-thread', runId: 'run-2' }));
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text)).toEqual({
      error: { code: 'THREAD_BUSY', message: 'The AG-UI thread already has an active run.' },
    });

    const answer = await cancel(b, open.executionId, 'busy-thread');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ executionId: open.executionId, status: 'cancelled' });
    // B answered once A's run gave its lease back (docs/behaviour/cancel.md#cancel-route): the thread
    // takes a new turn through B at once.
    const next = await postRun(b.url, runInput({ threadId: 'busy-thread', runId: 'run-3' }));
    expect(next.status).toBe(200);
    expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const run = await open.response; // ended through pub/sub, long before the kernel's own end
    expect(run.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
    const cancels = (await replicas.upstream.requests()).filter((entry) => entry.rpcMethod === 'CancelTask');
    expect(cancels.map((entry) => (entry.body as Json).params.id)).toContain(open.taskId);
  });

  it('resumes through B an interrupt raised through A, exactly once', async () => {
    const [a, b] = [await startReplica(), await startReplica()];
    const first = await postRun(a.url, runInput({ threadId: 'hitl', runId: 'run-1', text: 'permission' }));
    const interrupts = interruptsOf(first.events);
    expect(interrupts).toHaveLength(1);
    const taskId = (await documentOf('hitl'))?.execution.taskId as string;
    const resume = [
      { interruptId: interrupts![0].id, status: 'resolved', payload: { decision: 'allow_once' } },
    ];
    const resumeBody = (runId: string) =>
      runInput({ threadId: 'hitl', runId, extra: { messages: [], resume } });

    const resumed = await postRun(b.url, resumeBody('run-2'));
    expect(resumed.status).toBe(200);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(await documentOf('hitl')).toMatchObject({ execution: { pending: {}, taskId: null } });

    // The same answer again, through A this time: nothing is pending, so nothing reaches the kernel.
    const again = await postRun(a.url, resumeBody('run-3'));
    expect(again.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
    expect(await answersTo(taskId)).toHaveLength(1);
  });

  it('expires an interrupt once cluster-wide although both replicas armed a timer for it', async () => {
    const env = { IAC_CODE_AGUI_INTERRUPT_TTL: '1' };
    const [a, b] = [await startReplica(env), await startReplica(env)];
    const first = await postRun(
      a.url,
      runInput({ threadId: 'expiring', runId: 'run-1', text: 'permission' }),
    );
    expect(interruptsOf(first.events)).toHaveLength(1);
    const { executionId, taskId } = (await documentOf('expiring'))?.execution as Json;
    // B loads the thread too (a cancel naming another caller: 404, but B's expiry timer is now armed).
    expect((await fetchCancelAs(b, executionId, 'expiring', 'someone-else')).status).toBe(404);

    const expired = await eventually(
      () => documentOf('expiring'),
      (doc) => (doc?.terminalExecutionIds ?? []).includes(executionId),
      5_000,
    );
    expect(expired).toMatchObject({ execution: { pending: {}, taskId: null, lastTaskId: taskId } });
    // A timer on purpose: B's expiry timer fires at the same instant and, finding nothing left, does
    // nothing visible, so there is no event to wait for; give it the time to misbehave if it would.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancels = (await replicas.upstream.requests()).filter(
      (entry) => entry.rpcMethod === 'CancelTask' && (entry.body as Json).params.id === taskId,
    );
    expect(cancels).toHaveLength(1);
    expect((await documentOf('expiring'))?.terminalExecutionIds).toEqual([executionId]);
  });

  it('frees the thread of a crashed replica after the lease TTL', async () => {
    const [a, b] = [await startReplica(), await startReplica()];
    const open = await startOpenRun(a, 'crash-thread');
    // Crash A: its Redis connections drop without releasing the lease, so nobody renews or releases it.
    storeOf(a).disconnectWithoutCleanup();
    const leaseKey = redisThreadKeys(keyPrefix, 'crash-thread').lease;
    const measuredAt = Date.now();
    // What A's lease has left: it expires no earlier than measuredAt + remainingMs (Redis never expires early).
    const remainingMs = await raw.pttl(leaseKey);
    expect(remainingMs).toBeGreaterThan(0); // the lease has an expiry, and it is A's TTL at most
    expect(remainingMs).toBeLessThanOrEqual(LEASE_TTL_MS);

    const early = await postRun(b.url, runInput({ threadId: 'crash-thread', runId: 'run-2' }));
    expect({ status: early.status, answeredBeforeExpiry: Date.now() < measuredAt + remainingMs }).toEqual({
      status: 409,
      answeredBeforeExpiry: true,
    });
    expect(JSON.parse(early.text).error.code).toBe('THREAD_BUSY');
    open.abort();
    await open.response;
    await a.close();

    const later = await eventually(
      () => postRun(b.url, runInput({ threadId: 'crash-thread', runId: `run-${Date.now()}` })),
      (response) => response.status === 200,
      LEASE_TTL_MS * 5,
    );
    expect(later.status).toBe(200);
    // The lease TTL is the behaviour: the thread was not freed before it ran out (a lower bound, which a
    // slow machine cannot break; 1 ms for the two clocks' rounding).
    expect(Date.now()).toBeGreaterThanOrEqual(measuredAt + remainingMs - 1);
    expect(later.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    // The crashed run's execution was rotated out as terminal (docs/behaviour/state.md#admission step 8).
    expect((await documentOf('crash-thread'))?.terminalExecutionIds).toContain(open.executionId);
  });

  it('admits exactly one of 24 concurrent new runs on one thread across both replicas', async () => {
    const [a, b] = [await startReplica(), await startReplica()];
    const controller = new AbortController();
    const outcomes = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        admissionStatus(
          (index % 2 === 0 ? a : b).url,
          runInput({ threadId: 'race-thread', runId: `run-${index}`, text: 'silent' }),
          controller.signal,
        ),
      ),
    );
    controller.abort();
    expect(outcomes.filter((outcome) => outcome.status === 200)).toHaveLength(1);
    expect(
      outcomes.filter((outcome) => outcome.status === 409 && outcome.code === 'THREAD_BUSY'),
    ).toHaveLength(23);
    const document = await documentOf('race-thread');
    expect(Object.keys(document?.runDigests ?? {})).toHaveLength(1);
  });
});
