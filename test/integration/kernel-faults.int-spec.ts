import type { BaseEvent } from '@ag-ui/core';
import { expectConformantEvents } from '../support/agui-conformance';
import { startFaultProxy, type FaultMode, type FaultProxy } from '../support/fault-proxy';
import { interruptsOf, paramsOf, postResume } from '../support/interrupt-helpers';
import { runInput } from '../support/run-input';
import { eventually, postRun, type SseResponse } from '../support/sse-client';
import type { RunningGateway } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';

const CANCEL_TIMEOUT_SECONDS = 1;
/** How long a test waits for the thread to be free: the cancel timeout, plus room for a loaded machine. */
const FREE_WITHIN_MS = CANCEL_TIMEOUT_SECONDS * 1000 + 4000;

type Session = BaseEvent & { name?: string; value?: { taskId?: string } };
const taskIdOf = (events: BaseEvent[]) =>
  (events.find((event) => (event as Session).name === 'iac-code.session.v1') as Session | undefined)?.value
    ?.taskId;

/**
 * A fault proxy between the gateway and the kernel-like upstream: every way a kernel call can break ends
 * the run with a typed RUN_ERROR after its spans are closed, and leaves the thread free for the next run —
 * within the stream idle / call deadlines, or within the cancel timeout once the client has left.
 */
describe('kernel faults: deadlines, closed spans and a free thread', () => {
  // Pings every 200 ms: a healthy stream is never silent for the bounded gateway's 1 s.
  const gateways = useGateway({
    upstream: { pingMs: 200 },
    env: () => ({
      IAC_CODE_AGUI_A2A_URL: proxy.url,
      IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS: String(CANCEL_TIMEOUT_SECONDS),
    }),
    startBeforeAll: false,
  });
  let proxy: FaultProxy;
  /** Short deadlines: a silent stream ends after 1 s, a unary call after 2 s. */
  let bounded: RunningGateway;
  /** Deadlines far beyond the test: only the client leaving can free the thread. */
  let patient: RunningGateway;

  beforeAll(async () => {
    proxy = await startFaultProxy(gateways.upstream.url);
    bounded = await gateways.start({
      IAC_CODE_AGUI_A2A_IDLE_SECONDS: '1',
      IAC_CODE_AGUI_A2A_CALL_TIMEOUT_SECONDS: '2',
    });
    patient = await gateways.start({
      IAC_CODE_AGUI_A2A_IDLE_SECONDS: '600',
      IAC_CODE_AGUI_A2A_CALL_TIMEOUT_SECONDS: '600',
    });
  });
  afterAll(() => proxy?.close());

  /** A normal turn on the thread is admitted and finishes: nothing holds the thread. */
  const expectThreadFree = async (gateway: RunningGateway, threadId: string, runId: string) => {
    const next = await eventually(
      () => postRun(gateway.url, runInput({ threadId, runId })),
      (response) => response.status !== 409,
      FREE_WITHIN_MS,
    );
    expect(next.status).toBe(200);
    expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  };
  const expectIdlePing = async (gateway: RunningGateway) => {
    const ping = await eventually(
      async () => (await fetch(`${gateway.url}ping`)).json() as Promise<{ status: string }>,
      (body) => body.status === 'Healthy',
      FREE_WITHIN_MS,
    );
    expect(ping.status).toBe('Healthy');
  };
  const cancelledTaskIds = async () =>
    (await paramsOf(gateways.upstream, 'CancelTask')).map((params) => params.id);

  it.each<{ mode: FaultMode; afterFrames?: number; cancels: boolean }>([
    { mode: 'hang', cancels: false },
    { mode: 'http-500', cancels: false },
    { mode: 'stall', afterFrames: 6, cancels: true },
    { mode: 'reset', afterFrames: 6, cancels: true },
    { mode: 'garbage', afterFrames: 6, cancels: true },
    { mode: 'error-frame', afterFrames: 6, cancels: true },
  ])(
    'SendStreamingMessage meets $mode: RUN_ERROR A2A_UNAVAILABLE, spans closed, thread free',
    async ({ mode, afterFrames, cancels }) => {
      const threadId = `fault-${mode}`;
      const applied = proxy.arm('SendStreamingMessage', mode, afterFrames);
      const response = await postRun(bounded.url, runInput({ threadId, text: 'slow' }));
      await applied;
      expect(response.status).toBe(200);
      await expectConformantEvents(response.events);
      expect(response.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'A2A_UNAVAILABLE' });
      if (cancels) {
        // The task was named before the fault: it is cancelled, best effort.
        const taskId = taskIdOf(response.events);
        expect(taskId).toEqual(expect.any(String));
        expect(await eventually(cancelledTaskIds, (ids) => ids.includes(taskId))).toContain(taskId);
      }
      await expectThreadFree(bounded, threadId, 'run-2');
      await expectIdlePing(bounded);
    },
  );

  it('a stream that goes silent mid-turn (no ping either) ends after the idle deadline with its text span closed', async () => {
    const applied = proxy.arm('SendStreamingMessage', 'stall', 6);
    const response = await postRun(bounded.url, runInput({ threadId: 'stall-spans', text: 'slow' }));
    await applied;
    const types = response.events.map((event) => event.type);
    expect(types).toContain('TEXT_MESSAGE_START');
    expect(types.slice(-2)).toEqual(['TEXT_MESSAGE_END', 'RUN_ERROR']);
    await expectConformantEvents(response.events);
  });

  it('a resume whose GetTask never answers ends at the call deadline and keeps the interrupt answerable', async () => {
    const threadId = 'fault-get-task';
    const parked = await postRun(bounded.url, runInput({ threadId, text: 'permission' }));
    const [interrupt] = interruptsOf(parked.events) ?? [];
    expect(interrupt).toBeDefined();
    const applied = proxy.arm('GetTask', 'hang');
    const answer = { interruptId: interrupt.id, status: 'resolved', payload: { decision: 'allow_once' } };
    const failed = await postResume(bounded.url, threadId, 'run-2', [answer]);
    await applied;
    await expectConformantEvents(failed.events);
    expect(failed.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'A2A_UNAVAILABLE' });
    const retried = await postResume(bounded.url, threadId, 'run-3', [answer]);
    expect(retried.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  /** Posts a run, waits until the armed fault holds its kernel call, then leaves. */
  const leaveDuring = async (post: (signal: AbortSignal) => Promise<SseResponse>, applied: Promise<void>) => {
    const controller = new AbortController();
    const response = post(controller.signal);
    await applied;
    controller.abort();
    await response.catch(() => undefined);
  };

  it('a client that leaves during a hung SendStreamingMessage frees the thread within the cancel timeout', async () => {
    const threadId = 'leave-hung-send';
    await leaveDuring(
      (signal) => postRun(patient.url, runInput({ threadId, text: 'slow' }), { signal }),
      proxy.arm('SendStreamingMessage', 'hang'),
    );
    await expectThreadFree(patient, threadId, 'run-2');
    await expectIdlePing(patient);
  });

  it('a client that leaves during a hung resume GetTask frees the thread within the cancel timeout', async () => {
    const threadId = 'leave-hung-get-task';
    const parked = await postRun(patient.url, runInput({ threadId, text: 'permission' }));
    const [interrupt] = interruptsOf(parked.events) ?? [];
    const answer = { interruptId: interrupt.id, status: 'resolved', payload: { decision: 'allow_once' } };
    await leaveDuring(
      (signal) => postResume(patient.url, threadId, 'run-2', [answer], {}, { signal }),
      proxy.arm('GetTask', 'hang'),
    );
    // The interrupt is still pending (nothing was sent): the same answer under a new run id is admitted.
    const retried = await eventually(
      () => postResume(patient.url, threadId, 'run-3', [answer]),
      (response) => response.status !== 409,
      FREE_WITHIN_MS,
    );
    expect(retried.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    await expectIdlePing(patient);
  });

  it('a client that leaves mid-stream gets its task cancelled once and its next run admitted at once', async () => {
    for (const attempt of [1, 2, 3]) {
      const threadId = `leave-and-retry-${attempt}`;
      const cancelArrived = proxy.hold('CancelTask');
      const left = await postRun(patient.url, runInput({ threadId, text: 'slow' }), {
        disconnectAfterEvents: 4,
      });
      const taskId = taskIdOf(left.events);
      expect(taskId).toEqual(expect.any(String));
      // The gateway has seen the client leave once its CancelTask reaches the proxy (held there, unanswered):
      // the slot is free as soon as the execution is terminal, before CancelTask returns.
      const releaseCancel = await cancelArrived;
      const next = await postRun(patient.url, runInput({ threadId, runId: 'run-2' }));
      releaseCancel();
      expect(next.status).toBe(200);
      expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
      const cancels = await eventually(cancelledTaskIds, (ids) => ids.includes(taskId));
      expect(cancels.filter((id) => id === taskId)).toHaveLength(1);
    }
  });
});
