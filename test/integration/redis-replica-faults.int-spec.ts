import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BaseEvent } from '@ag-ui/core';
import Redis from 'ioredis';
import { redisThreadKeys } from '../../src/threads/redis-thread-keys';
import { STORE_PROBE_DEADLINE_MS, STORE_PROBE_REUSE_MS } from '../../src/threads/thread-store.health';
import { startFaultProxy, type FaultProxy, type ProxiedCall } from '../support/fault-proxy';
import { interruptsOf, resumeInput, type Json } from '../support/interrupt-helpers';
import { freeRedisPort, startRedisServer, type RunningRedis } from '../support/redis-server';
import { runInput } from '../support/run-input';
import { eventually, openRun, postRun, type OpenRun } from '../support/sse-client';
import { startKernelUpstream, type KernelUpstream } from '../support/start-kernel-upstream';
import { buildServiceForTests, startServiceProcess, type ServiceProcess } from '../support/service-process';

/**
 * Replicas as real processes (`node main.js`, built from the current sources) over one real redis-server and
 * one scripted kernel, each replica behind its own proxy that counts what it asked of the kernel
 * (docs/behaviour/state.md#the-run-lease, #re-adoption). A replica is frozen with SIGSTOP/SIGCONT (a GC pause,
 * a VM stall) or crashed with SIGKILL. AGUI_REPLICA_FAULT_TRIES sets how many tries each loop makes (default
 * 3; the measurement runs 20); a loop over moments makes at least one try per moment.
 */
const TRIES = Number(process.env.AGUI_REPLICA_FAULT_TRIES ?? 3);
/** The tries of a loop that rotates over `moments`: every moment is visited, whatever TRIES says. */
const triesOver = (moments: readonly string[]) => Math.max(TRIES, moments.length);
/** Redis stalls (SIGSTOP for STALL_MS) the readiness loop makes; the measurement runs 20. */
const STALL_CYCLES = Number(process.env.AGUI_REDIS_STALL_CYCLES ?? 2);
const STALL_MS = 5_000;
/** The readiness poller's interval, as a load balancer's would be. */
const POLL_MS = 50;
/**
 * How soon readiness tells a Redis stall, from its start, and its end, from its end, in every cycle
 * (docs/behaviour/state.md#readiness). By design a stall is seen within the probe's deadline + the reuse of an
 * "up" probe + one poll (1.15 s), its end at the first check after it. The measurement run
 * (AGUI_REDIS_STALL_CYCLES set, on a machine quiet enough to measure on) asserts the documented 1.5 s, which
 * leaves ~350 ms for the answers' own trips. Any other run asserts that design figure plus 2 s: a loaded
 * machine delays an answer by scheduling, not by seconds, and a cached verdict (readiness reused for 5 s: the
 * first 503 up to 4 s late or never, the 200 up to 3 s late) still fails it. Every run also asserts what does
 * not depend on speed: once a stall answered 503, nothing answers 200 until it ends.
 */
const IS_STALL_MEASUREMENT = process.env.AGUI_REDIS_STALL_CYCLES !== undefined;
const STALL_SEEN_MS = STORE_PROBE_DEADLINE_MS + STORE_PROBE_REUSE_MS + POLL_MS;
const READINESS_BOUND_MS = IS_STALL_MEASUREMENT ? 1_500 : STALL_SEEN_MS + 2_000;
/** How long after the replica its Redis starts, in the "replica before Redis" scenario. */
const REDIS_LATE_MS = 10_000;
/** Short, so a try waits about a second for the lease of a frozen or dead replica to run out. */
const LEASE_TTL_SECONDS = '1';
const ALLOW = { decision: 'allow_once' };
/** What changes a kernel task: the calls a replica without the lease must never make. */
const SIDE_EFFECTS = new Set(['SendMessage', 'SendStreamingMessage', 'CancelTask']);
const TURN_END_TEXT = 'The workspace is /workspace.';

interface Replica {
  readonly url: string;
  readonly service: ServiceProcess;
  readonly proxy: FaultProxy;
}

let buildDir: string;
let stateDir: string;
let redis: RunningRedis;
let raw: Redis;
let upstream: KernelUpstream;
let keyPrefix: string;
let prefixCount = 0;
const replicas: Replica[] = [];

beforeAll(async () => {
  [buildDir, redis, upstream] = await Promise.all([
    buildServiceForTests(),
    startRedisServer(),
    startKernelUpstream(),
  ]);
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-replicas-'));
  raw = new Redis(redis.url);
}, 200_000);
afterEach(async () => {
  await Promise.all(
    replicas.splice(0).map(async ({ service, proxy }) => {
      await service.close();
      await proxy.close();
    }),
  );
});
afterAll(async () => {
  raw?.disconnect();
  await upstream?.close();
  await redis?.close();
  for (const dir of [buildDir, stateDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  keyPrefix = `faults${++prefixCount}:`;
});

async function startReplica(env: Record<string, string> = {}): Promise<Replica> {
  const proxy = await startFaultProxy(upstream.url);
  const started = startServiceProcess(buildDir, {
    IAC_CODE_AGUI_STATE_STORE: 'redis',
    IAC_CODE_AGUI_REDIS_URL: redis.url,
    IAC_CODE_AGUI_REDIS_KEY_PREFIX: keyPrefix,
    IAC_CODE_AGUI_REDIS_LEASE_TTL_SECONDS: LEASE_TTL_SECONDS,
    IAC_CODE_AGUI_A2A_URL: proxy.url,
    IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
    IAC_CODE_AGUI_STATE_DIR: stateDir,
    IAC_CODE_AGUI_INTERRUPT_TTL: '0',
    IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS: '2',
    ...env,
  });
  // A replica that refuses to start leaves no proxy behind.
  const service = await started.catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  const replica = { url: service.url, service, proxy };
  replicas.push(replica);
  return replica;
}

async function documentOf(threadId: string, client = raw): Promise<Json | undefined> {
  const text = await client.hget(redisThreadKeys(keyPrefix, threadId).document, 'document');
  return text === null ? undefined : (JSON.parse(text) as Json);
}

async function readiness(replica: Replica): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${replica.url}health/ready`);
  return { status: response.status, body: (await response.json()) as Json };
}

const sideEffects = (calls: ProxiedCall[]) => calls.filter((call) => SIDE_EFFECTS.has(call.method));

const lastOf = (events: readonly BaseEvent[]) =>
  events.at(-1) as (BaseEvent & { code?: string; outcome?: Json }) | undefined;

const textOf = (events: readonly BaseEvent[]) =>
  events
    .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
    .map((event) => (event as BaseEvent & { delta: string }).delta)
    .join('');

/** How many times `part` occurs in `text`: a turn's text told once, not missing, not twice. */
const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** Parks a permission on the thread through `replica`; returns the resume body that answers it. */
async function parkPermission(replica: Replica, threadId: string, text = 'permission') {
  const asked = await postRun(replica.url, runInput({ threadId, runId: 'ask', text }));
  const [interrupt] = interruptsOf(asked.events) ?? [];
  if (!interrupt) throw new Error(`no interrupt on ${threadId}: ${JSON.stringify(lastOf(asked.events))}`);
  return (runId: string) =>
    resumeInput(threadId, runId, [{ interruptId: interrupt.id, status: 'resolved', payload: ALLOW }]);
}

/**
 * A client retrying on `replica` while the thread is still leased by the replica it left: refused
 * THREAD_BUSY until that lease runs out, then admitted. Returns the admitted run, still streaming.
 */
async function openWhenAdmitted(replica: Replica, body: (runId: string) => unknown): Promise<OpenRun> {
  for (let attempt = 1; ; attempt++) {
    const run = openRun(replica.url, body(`retry-${attempt}`));
    const refused = await Promise.race([
      run
        .waitForEvent((event) => event.type === 'RUN_STARTED')
        .then(
          () => undefined,
          () => undefined,
        ),
      run.finished.then((response) => (response.status === 409 ? response : undefined)),
    ]);
    if (!refused) return run;
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'THREAD_BUSY' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a replica frozen past its lease while another took the thread over', () => {
  it(
    `never acts on the kernel again, and the new owner's run completes (${TRIES} tries)`,
    async () => {
      const [stale, owner] = [await startReplica(), await startReplica()];
      for (let attempt = 0; attempt < TRIES; attempt++) {
        const threadId = `split-${attempt}`;
        const resume = await parkPermission(owner, threadId);

        // The resume lands on the stale replica, which claims the lease and freezes during its preflight.
        const getTaskArrived = stale.proxy.hold('GetTask');
        const onStale = openRun(stale.url, resume('answer-stale'));
        const forwardGetTask = await getTaskArrived;
        stale.service.signal('SIGSTOP');
        const callsBeforeFreeze = stale.proxy.calls().length;
        // The kernel's answer waits in the frozen process's socket, showing the permission still pending.
        forwardGetTask();

        // The client retries on the other replica, which takes over once the lease has run out, answers and
        // streams the resumed task; the stale replica thaws while that stream is open.
        const answerStreaming = owner.proxy.holdAnswer('SendStreamingMessage', 2);
        const onOwner = openWhenAdmitted(owner, resume);
        const releaseAnswer = await answerStreaming;
        stale.service.signal('SIGCONT');
        const staleEnd = await onStale.finished;
        releaseAnswer();
        const ownerEnd = await (await onOwner).finished;

        expect(sideEffects(stale.proxy.calls().slice(callsBeforeFreeze))).toEqual([]);
        expect(lastOf(staleEnd.events)).toMatchObject({ type: 'RUN_ERROR', code: 'THREAD_TAKEN_OVER' });
        expect(lastOf(ownerEnd.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
        expect(textOf(ownerEnd.events)).toContain(TURN_END_TEXT);
        expect(await documentOf(threadId)).toMatchObject({ execution: { pending: {}, taskId: null } });
      }
      // The kernel itself counted no CancelTask at all, from either replica.
      const cancels = (await upstream.requests()).filter((entry) => entry.rpcMethod === 'CancelTask');
      expect(cancels).toEqual([]);
    },
    60_000 + TRIES * 20_000,
  );
});

/** Where the lease holder is frozen, relative to its terminal write (docs/behaviour/state.md#the-run-lease). */
const END_MOMENTS = [
  'before the terminal write: mid-turn',
  'at the terminal write: the whole turn waiting in its socket',
  'after the terminal write landed',
] as const;

/**
 * SIGSTOP to `replica` the moment Redis executes a write marking `executionId` terminal (MONITOR on its own
 * connection, read line by line); resolves once sent.
 */
async function freezeAtTerminalWrite(replica: Replica, executionId: string): Promise<void> {
  const { port } = new URL(redis.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.write('MONITOR\r\n');
  let buffered = '';
  try {
    await new Promise<void>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\r\n');
        buffered = lines.pop() ?? '';
        // The document is escaped inside the MONITOR line: its execution id and the terminal list are in it.
        if (
          lines.some(
            (line) => /terminalExecutionIds\\": \[\\n\s+\\"/.test(line) && line.includes(executionId),
          )
        ) {
          replica.service.signal('SIGSTOP');
          resolve();
        }
      });
    });
  } finally {
    socket.destroy();
  }
}

describe('a lease holder frozen around its terminal write, thawed while the new owner streams', () => {
  it(
    `tells its client THREAD_TAKEN_OVER unless the turn ended under its own lease, never a second outcome of the turn (${triesOver(END_MOMENTS)} tries)`,
    async () => {
      const [stale, owner] = [await startReplica(), await startReplica()];
      const tally = new Map<string, number>();
      for (let attempt = 0; attempt < triesOver(END_MOMENTS); attempt++) {
        const threadId = `split-end-${attempt}`;
        const moment = END_MOMENTS[attempt % END_MOMENTS.length];
        const resume = await parkPermission(owner, threadId, 'permission slow-resume');
        const { executionId, taskId } = (await documentOf(threadId))?.execution as Json;

        let onStale: OpenRun;
        let holdOwner: Promise<() => void>;
        if (moment === 'after the terminal write landed') {
          const frozen = freezeAtTerminalWrite(stale, executionId as string);
          onStale = openRun(stale.url, resume('answer-stale'));
          await frozen;
          // The new owner finds the execution ended and asks the kernel nothing: it thaws the stale one once admitted.
          holdOwner = Promise.resolve(() => undefined);
        } else {
          // Frozen once the kernel accepted the answer; the rest of the turn waits in its socket.
          const answerHeld = stale.proxy.holdAnswer('SendStreamingMessage', 1);
          onStale = openRun(stale.url, resume('answer-stale'));
          const releaseAnswer = await answerHeld;
          stale.service.signal('SIGSTOP');
          releaseAnswer();
          if (moment === 'at the terminal write: the whole turn waiting in its socket') {
            await eventually(
              () => kernelTaskState(taskId as string),
              (state) => state === 'TASK_STATE_INPUT_REQUIRED',
              15_000,
            );
            holdOwner = owner.proxy.hold('GetTask');
          } else {
            holdOwner = owner.proxy.holdAnswer('SubscribeToTask', 1);
          }
        }

        // The client retries on the other replica, admitted once the lease has run out; the stale replica
        // thaws while that run is open (held at the kernel by its proxy).
        const onOwner = openWhenAdmitted(owner, resume);
        // The kernel may end the turn before the owner is admitted (the lease runs out first): the owner then
        // tells it from the task's snapshot without the call held for it, and the stale replica thaws after.
        const ownerEnded = onOwner.then((run) => run.finished).then(() => () => undefined);
        const releaseOwner = await Promise.race([holdOwner, ownerEnded]);
        // A last event the stale replica sent before the freeze has arrived by now (the lease ran out since):
        // then the freeze came after the run's end, which is no split brain.
        const staleHeardTheEnd = onStale.received.some(
          (event) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR',
        );
        stale.service.signal('SIGCONT');
        const staleEnd = await onStale.finished;
        releaseOwner();
        const ownerEnd = await (await onOwner).finished;
        owner.proxy.disarm();

        const outcome = (events: readonly BaseEvent[]) =>
          events
            .filter((event) => event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR')
            .map((event) => `${event.type} ${(event as { code?: string }).code ?? ''}`.trim());
        const staleTold = outcome(staleEnd.events);
        const ownerTold = outcome(ownerEnd.events);
        const ownerStreamedTheTurn = textOf(ownerEnd.events).length > 0 || ownerTold[0] === 'RUN_FINISHED';
        const key = `${moment}: stale ${staleTold.join(', ')}${staleHeardTheEnd ? ' before the freeze' : ''}; owner ${ownerTold.join(', ')}${ownerStreamedTheTurn ? ' with the turn' : ''}`;
        tally.set(key, (tally.get(key) ?? 0) + 1);
        process.stdout.write(`try ${attempt + 1}: ${key}\n`);
        // Each client hears one terminal event (docs/behaviour/state.md#the-run-lease, "One story per turn").
        expect([staleTold.length, ownerTold.length]).toEqual([1, 1]);
        const ownerTurnText = occurrences(textOf(ownerEnd.events), TURN_END_TEXT);
        if (moment === 'after the terminal write landed') {
          // The turn ended under the stale replica's lease: the new owner says the answer was already applied
          // and streams nothing of the turn; the stale client hears RUN_FINISHED when its last lease check
          // passed before the freeze, THREAD_TAKEN_OVER when the thawed replica found the lease gone. A stale
          // RUN_FINISHED while the owner ran the turn or ended it otherwise is two outcomes, and fails here.
          expect({ moment, ownerTold, ownerTurnText }).toEqual({
            moment,
            ownerTold: ['RUN_ERROR RESUME_ALREADY_APPLIED'],
            ownerTurnText: 0,
          });
          expect(['RUN_FINISHED', 'RUN_ERROR THREAD_TAKEN_OVER']).toContain(staleTold[0]);
        } else {
          // Frozen before the turn ended under its lease: the stale client hears that it lost the thread, and
          // the new owner alone tells the turn, its final text included (from the task or its snapshot).
          expect({ moment, staleTold, ownerTurnText }).toEqual({
            moment,
            staleTold: ['RUN_ERROR THREAD_TAKEN_OVER'],
            ownerTurnText: 1,
          });
          expect(ownerTold[0]).toMatch(/^(RUN_FINISHED|RUN_ERROR RESUME_ALREADY_APPLIED)$/);
        }
        expect(await documentOf(threadId)).toMatchObject({ execution: { pending: {}, taskId: null } });
      }
      process.stdout.write(`${[...tally].map(([key, count]) => `${count} × ${key}`).join('\n')}\n`);
    },
    60_000 + triesOver(END_MOMENTS) * 30_000,
  );
});

/** How each try cuts the replica running the resume. */
const KILL_MOMENTS = [
  'answer not yet sent',
  'answer accepted and recorded',
  'turn ended before the retry',
  'somewhere in the rest of the turn',
] as const;

/** The kernel's own view of the task (GetTask straight to the kernel, not through a replica). */
async function kernelTask(taskId: string): Promise<Json | undefined> {
  const response = await fetch(upstream.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'GetTask',
      params: { id: taskId, historyLength: 100 },
    }),
  });
  return ((await response.json()) as Json).result as Json | undefined;
}

async function kernelTaskState(taskId: string): Promise<string | undefined> {
  return (await kernelTask(taskId))?.status?.state as string | undefined;
}

/** The agent's text in a task snapshot's history. */
const historyTextOf = (task: Json | undefined): string =>
  ((task?.history ?? []) as Json[])
    .filter((message) => message.role === 'ROLE_AGENT')
    .flatMap((message) => (message.parts as Json[]).map((part) => String(part.text ?? '')))
    .join('');

describe('a replica SIGKILLed mid-resume', () => {
  it(
    `the retry on another replica tells the one story of the turn, its final text included (${triesOver(KILL_MOMENTS)} tries)`,
    async () => {
      let victim = await startReplica();
      const survivor = await startReplica();
      let readopted = 0;
      for (let attempt = 0; attempt < triesOver(KILL_MOMENTS); attempt++) {
        const threadId = `killed-${attempt}`;
        const moment = KILL_MOMENTS[attempt % KILL_MOMENTS.length];
        const resume = await parkPermission(survivor, threadId, 'permission slow-resume');
        const taskId = (await documentOf(threadId))?.execution.taskId as string;

        const answerAtProxy =
          moment === 'answer not yet sent'
            ? victim.proxy.hold('SendStreamingMessage')
            : victim.proxy.holdAnswer('SendStreamingMessage', 1);
        const onVictim = openRun(victim.url, resume('answer-victim'));
        const releaseAnswer = await answerAtProxy;
        if (moment !== 'answer not yet sent') {
          // Accepted: the answer is recorded (pending empty) before its events go out.
          await eventually(
            () => documentOf(threadId),
            (doc) => doc !== undefined && Object.keys(doc.execution.pending).length === 0,
            10_000,
          );
        }
        if (moment === 'somewhere in the rest of the turn') {
          releaseAnswer();
          // The kill moment is the behaviour: a different point of the streamed rest each try.
          await new Promise((resolve) => setTimeout(resolve, 100 + ((attempt * 379) % 1500)));
        }
        victim.service.signal('SIGKILL');
        await victim.service.exited;
        await onVictim.finished.catch(() => undefined);
        if (moment === 'turn ended before the retry') {
          await eventually(
            () => kernelTaskState(taskId),
            (state) => state === 'TASK_STATE_INPUT_REQUIRED',
            15_000,
          );
        }

        const retry = await (await openWhenAdmitted(survivor, resume)).finished;
        const told = [onVictim.received, retry.events];
        const outcomes = told.map((events) => lastOf(events)).filter((event) => event !== undefined);
        // One story: success where the turn was heard to its end, else the truthful "already applied" — never
        // a cancel, a lost execution or an upstream failure for a turn that ran to its end on the kernel.
        for (const outcome of outcomes) {
          if (outcome.type === 'RUN_FINISHED')
            expect(outcome).toMatchObject({ outcome: { type: 'success' } });
          else if (outcome.type === 'RUN_ERROR')
            expect(outcome).toMatchObject({ code: 'RESUME_ALREADY_APPLIED' });
        }
        const retryEnd = lastOf(retry.events);
        expect(retryEnd?.type).toMatch(/^RUN_(FINISHED|ERROR)$/);
        if (moment === 'answer not yet sent') {
          expect(retryEnd).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
        } else {
          expect(retryEnd).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
          readopted += 1;
        }
        // The answer reached the kernel once, whoever sent it.
        const answers = (await upstream.requests()).filter(
          (entry) =>
            entry.rpcMethod === 'SendStreamingMessage' &&
            (entry.body as Json).params.message.taskId === taskId,
        );
        expect(answers).toHaveLength(1);
        // The turn's final text reaches the retrying client, once, at every moment: the kernel's task snapshot
        // holds it from the turn's end on (its history keeps the whole-answer repeat), and a retry before that
        // end follows the task, whose frames still to come carry it (docs/behaviour/state.md#re-adoption).
        const snapshot = await kernelTask(taskId);
        expect(historyTextOf(snapshot)).toContain(TURN_END_TEXT);
        expect({ moment, retryTurnText: occurrences(textOf(retry.events), TURN_END_TEXT) }).toEqual({
          moment,
          retryTurnText: 1,
        });
        // The execution ended, and the thread takes a new turn at once.
        expect(await documentOf(threadId)).toMatchObject({ execution: { pending: {}, taskId: null } });
        const next = await postRun(survivor.url, runInput({ threadId, runId: 'next', text: 'hello' }));
        expect(lastOf(next.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });

        victim = await startReplica();
      }
      process.stdout.write(
        `re-adopted a cut turn with its rest in ${readopted} of ${triesOver(KILL_MOMENTS)} tries\n`,
      );
    },
    60_000 + triesOver(KILL_MOMENTS) * 30_000,
  );
});

describe('Redis durability and stalls', () => {
  it('refuses to start on a Redis without AOF or with an evicting policy, naming the settings', async () => {
    for (const [options, problem] of [
      [{ appendonly: 'no' }, /appendonly is \\"no\\"/],
      [{ maxmemoryPolicy: 'allkeys-lru' }, /maxmemory-policy is \\"allkeys-lru\\"/],
    ] as const) {
      const volatile = await startRedisServer(options);
      try {
        const refused = startReplica({ IAC_CODE_AGUI_REDIS_URL: volatile.url });
        await expect(refused).rejects.toThrow(problem);
        await expect(refused).rejects.toThrow(/IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE=true/);
      } finally {
        await volatile.close();
      }
    }
  }, 60_000);

  it('starts on it with IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE=true, with a warning', async () => {
    const volatile = await startRedisServer({ appendonly: 'no' });
    try {
      const replica = await startReplica({
        IAC_CODE_AGUI_REDIS_URL: volatile.url,
        IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE: 'true',
      });
      expect(replica.service.output()).toContain('Redis is not durable');
      expect((await fetch(`${replica.url}health/ready`)).status).toBe(200);
      await replica.service.close();
    } finally {
      await volatile.close();
    }
  }, 60_000);

  it(
    `answers readiness 503 while Redis stalls, within ${READINESS_BOUND_MS} ms of the stall's start, and 200 within ${READINESS_BOUND_MS} ms of its end, in each of ${STALL_CYCLES} stalls of 5 s`,
    async () => {
      const replica = await startReplica();
      expect((await readiness(replica)).status).toBe(200);
      expect(replica.service.output()).not.toContain('Redis is not durable');
      // A poller as a load balancer's would be, every POLL_MS; each answer stamped when it arrived.
      const answers: { at: number; status: number; reason?: string }[] = [];
      let isPolling = true;
      const polling = (async () => {
        while (isPolling) {
          const answer = await readiness(replica);
          answers.push({
            at: performance.now(),
            status: answer.status,
            reason: answer.body.details?.threadStore?.reason,
          });
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      })();
      const toDown: number[] = [];
      const toUp: number[] = [];
      try {
        for (let cycle = 0; cycle < STALL_CYCLES; cycle++) {
          await eventually(
            async () => answers.at(-1)?.status,
            (status) => status === 200,
            20_000,
          );
          const stoppedAt = performance.now();
          redis.signal('SIGSTOP');
          const down = await eventually(
            async () => answers.find((answer) => answer.at > stoppedAt && answer.status === 503),
            (answer) => answer !== undefined,
            20_000,
          );
          // The stall lasts its 5 s from its start, whenever the poller saw it.
          await new Promise((resolve) =>
            setTimeout(resolve, Math.max(0, stoppedAt + STALL_MS - performance.now())),
          );
          const continuedAt = performance.now();
          redis.signal('SIGCONT');
          const up = await eventually(
            async () => answers.find((answer) => answer.at > continuedAt && answer.status === 200),
            (answer) => answer !== undefined,
            20_000,
          );
          expect(down).toMatchObject({ status: 503, reason: 'no answer in time' });
          expect(up?.status).toBe(200);
          toDown.push(down!.at - stoppedAt);
          toUp.push(up!.at - continuedAt);
          const healedDuringTheStall = answers.filter(
            (answer) => answer.at > down!.at && answer.at < continuedAt && answer.status !== 503,
          );
          expect({ cycle, healedDuringTheStall }).toEqual({ cycle, healedDuringTheStall: [] });
          const [firstDownMs, firstUpMs] = [toDown.at(-1)!, toUp.at(-1)!].map(Math.round);
          expect({ cycle, firstDownMs, firstUpMs, boundMs: READINESS_BOUND_MS }).toEqual({
            cycle,
            firstDownMs: Math.min(firstDownMs, READINESS_BOUND_MS),
            firstUpMs: Math.min(firstUpMs, READINESS_BOUND_MS),
            boundMs: READINESS_BOUND_MS,
          });
        }
      } finally {
        redis.signal('SIGCONT');
        isPolling = false;
        await polling;
      }
      const figures = (values: number[]) => {
        const sorted = [...values].sort((a, b) => a - b);
        const at = (q: number) =>
          Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
        return `min ${at(0)} median ${at(0.5)} p90 ${at(0.9)} max ${at(1)} ms`;
      };
      process.stdout.write(
        `readiness over ${STALL_CYCLES} Redis stalls of ${STALL_MS} ms: first 503 after the stall's start ${figures(toDown)}; first 200 after its end ${figures(toUp)}\n`,
      );
    },
    60_000 + STALL_CYCLES * 30_000,
  );
});

describe('a replica started before its Redis, and a Redis that restarts', () => {
  const cancelChannel = () => `${keyPrefix}cancel`;
  /** Redis on a port chosen now, started later: the replica's URL points at it before it exists. */
  async function lateRedis() {
    const port = await freeRedisPort();
    return { port, url: `redis://127.0.0.1:${port}/0` };
  }
  const subscribers = async (client: Redis) =>
    Number(((await client.pubsub('NUMSUB', cancelChannel())) as [string, number])[1]);
  /** The subscribers of the cancel channel once there is one (PUBSUB NUMSUB), or 0 after 20 s. */
  const whenSubscribed = (client: Redis) =>
    eventually(
      () => subscribers(client),
      (count) => count >= 1,
      20_000,
    );
  /** The thread's document once its task is bound (docs/behaviour/state.md#persist-before-announce). */
  const whenBound = (client: Redis, threadId: string) =>
    eventually(
      () => documentOf(threadId, client),
      (doc) => Boolean(doc?.execution.taskId),
      10_000,
    );

  it('joins fully once Redis starts 10 s later: ready, subscribed, and a cancel through another replica reaches its run by the channel', async () => {
    const late = await lateRedis();
    const early = await startReplica({ IAC_CODE_AGUI_REDIS_URL: late.url });
    expect(await readiness(early)).toMatchObject({
      status: 503,
      body: { details: { threadStore: { status: 'down', reason: 'Redis is not connected' } } },
    });
    const refused = await postRun(early.url, runInput({ threadId: 'early-0', runId: 'refused' }));
    expect({ status: refused.status, code: JSON.parse(refused.text).error.code }).toEqual({
      status: 503,
      code: 'STATE_UNAVAILABLE',
    });
    // The scenario itself, not a wait for something: Redis starts this long after the replica.
    await new Promise((resolve) => setTimeout(resolve, REDIS_LATE_MS));
    const server = await startRedisServer({ port: late.port });
    const client = new Redis(late.url);
    try {
      const startedAt = performance.now();
      await eventually(
        () => readiness(early),
        (answer) => answer.status === 200,
        20_000,
      );
      const readyAfterMs = performance.now() - startedAt;
      expect(await whenSubscribed(client)).toBeGreaterThanOrEqual(1);
      const subscribedAfterMs = performance.now() - startedAt;
      const other = await startReplica({ IAC_CODE_AGUI_REDIS_URL: late.url });

      // The kernel's own word of the cancel waits in the early replica's proxy: only the channel can end its run.
      const paused = early.proxy.holdAnswer('SendStreamingMessage', 1);
      const run = openRun(early.url, runInput({ threadId: 'early-1', runId: 'run-1', text: 'silent' }));
      const releaseStream = await paused;
      const bound = await whenBound(client, 'early-1');
      const cancelled = await fetch(
        `${other.url}extensions/iac-code/v1/executions/${bound?.execution.executionId}/cancel`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ threadId: 'early-1', rosInvocationId: 'invocation-1' }),
        },
      );
      expect(cancelled.status).toBe(200);
      const end = await run.finished;
      releaseStream();
      expect(lastOf(end.events)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
      // One line for the wait per connection, not one per retry.
      const lines = early.service.output();
      expect(lines.match(/Redis not reachable yet; retrying/g)).toHaveLength(2);
      expect(lines.match(/"msg":"Redis connected"/g)).toHaveLength(2);
      process.stdout.write(
        `replica started ${REDIS_LATE_MS} ms before Redis: ready ${Math.round(readyAfterMs)} ms and subscribed ${Math.round(subscribedAfterMs)} ms after Redis answered\n`,
      );
    } finally {
      client.disconnect();
      await server.close();
    }
  }, 90_000);

  it('refuses a volatile Redis it meets after boot (not ready, no run), or flags it with the override', async () => {
    const late = await lateRedis();
    const strict = await startReplica({ IAC_CODE_AGUI_REDIS_URL: late.url });
    const lenient = await startReplica({
      IAC_CODE_AGUI_REDIS_URL: late.url,
      IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE: 'true',
    });
    expect((await readiness(strict)).status).toBe(503);
    const server = await startRedisServer({ port: late.port, appendonly: 'no' });
    try {
      expect(
        (
          await eventually(
            () => readiness(lenient),
            (answer) => answer.status === 200,
            20_000,
          )
        ).status,
      ).toBe(200);
      expect(lenient.service.output()).toContain('Redis is not durable: a Redis restart or eviction');
      const notDurable = await eventually(
        () => readiness(strict),
        (answer) => /not durable/.test(String(answer.body.details?.threadStore?.reason)),
        20_000,
      );
      expect(notDurable).toMatchObject({
        status: 503,
        body: {
          details: { threadStore: { reason: 'Redis is not durable (appendonly is "no", not "yes")' } },
        },
      });
      const refused = await postRun(strict.url, runInput({ threadId: 'volatile-1', runId: 'run-1' }));
      expect({ status: refused.status, code: JSON.parse(refused.text).error.code }).toEqual({
        status: 503,
        code: 'STATE_UNAVAILABLE',
      });
      expect(strict.service.output()).toContain('Redis is not durable: this replica admits no run');
      const admitted = await postRun(lenient.url, runInput({ threadId: 'volatile-2', runId: 'run-1' }));
      expect(lastOf(admitted.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    } finally {
      await server.close();
    }
  }, 90_000);

  it('checks durability again at a reconnect: a Redis restarted without AOF is refused', async () => {
    const late = await lateRedis();
    let server = await startRedisServer({ port: late.port });
    try {
      const replica = await startReplica({ IAC_CODE_AGUI_REDIS_URL: late.url });
      expect((await readiness(replica)).status).toBe(200);
      await server.close();
      server = await startRedisServer({ port: late.port, appendonly: 'no' });
      const refused = await eventually(
        () => readiness(replica),
        (answer) => /not durable/.test(String(answer.body.details?.threadStore?.reason)),
        20_000,
      );
      expect(refused).toMatchObject({
        status: 503,
        body: {
          details: { threadStore: { reason: 'Redis is not durable (appendonly is "no", not "yes")' } },
        },
      });
    } finally {
      await server.close();
    }
  }, 90_000);

  it('after a Redis restart: subscribed again and writing (the scripts reloaded); a volatile restart ends a streaming run STATE_LOST', async () => {
    const late = await lateRedis();
    let server = await startRedisServer({ port: late.port, appendonly: 'no' });
    const client = new Redis(late.url);
    client.on('error', () => undefined); // the restarts below
    try {
      const replica = await startReplica({
        IAC_CODE_AGUI_REDIS_URL: late.url,
        IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE: 'true',
      });
      await whenSubscribed(client);
      const run = openRun(replica.url, runInput({ threadId: 'lost-1', runId: 'run-1', text: 'silent' }));
      await run.waitForEvent((event) => event.type === 'RUN_STARTED');
      await whenBound(client, 'lost-1');
      // Restarted without AOF: every key is gone, the run's lease and its thread's document with it.
      await server.close();
      server = await startRedisServer({ port: late.port, appendonly: 'no' });
      const end = await run.finished;
      expect(lastOf(end.events)).toMatchObject({ type: 'RUN_ERROR', code: 'STATE_LOST' });
      expect(String((lastOf(end.events) as Json).message)).toContain("lost this thread's state");
      expect(await whenSubscribed(client)).toBeGreaterThanOrEqual(1);
      const next = await postRun(replica.url, runInput({ threadId: 'lost-2', runId: 'run-1' }));
      expect(lastOf(next.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(replica.service.output()).toContain('Redis connection lost; reconnecting');
      expect(replica.service.output()).toContain('Redis connection back');
    } finally {
      client.disconnect();
      await server.close();
    }
  }, 90_000);
});
