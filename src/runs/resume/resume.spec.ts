import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { endOfTurnFrames, statusFrame, textDeltaFrame } from '../../demo-kernel/kernel-frames';
import {
  inputRequiredFrame,
  permissionInput,
  questionInput,
  sidebandPermissionsFrame,
} from '../../demo-kernel/kernel-inputs';
import { pipelineEnvelope, pipelineFrame } from '../../demo-kernel/pipeline-envelopes';
import { QUESTION_OPTIONS, shellPermissionSpec } from '../../demo-kernel/interrupt-scripts';
import type { KernelInputValue } from '../../demo-kernel/kernel-script';
import { EN as en } from '../../i18n/catalogue/en';
import { expectConformantEvents } from '../../../test/support/agui-conformance';
import {
  allowOnce as allow,
  kernelIds,
  lastEvent,
  parkedAt,
  resumeEngineRun as resumeRun,
  shellPermission as permission,
  startEngineRun,
} from '../../../test/support/engine-run';
import type { DrivenA2aGateway } from '../../../test/support/fakes/driven-a2a-gateway';
import { FakeClock } from '../../../test/support/fakes/fake-clock';
import { ThreadRegistry } from '../../threads/thread-registry';
import { END_REASON_EXPIRED } from '../../threads/thread-state';
import type { A2aFrame } from '../../wire/a2a-wire';

const question = (ids: ReturnType<typeof kernelIds>) =>
  questionInput(ids, {
    inputId: 'question-1',
    toolUseId: 'tool-q',
    prompt: 'Which plan?',
    options: QUESTION_OPTIONS,
  });

const giveUp = (interruptId: string) => [{ interruptId, status: 'cancelled' }];

/** GetTask answers these in turn, the last one from then on. */
function answerGetTasks(gateway: DrivenA2aGateway, ...answers: A2aFrame[]): void {
  const getTask = gateway.getTask.bind(gateway);
  gateway.getTask = (taskId: string) => {
    gateway.taskSnapshot = answers.length > 1 ? answers.shift() : answers[0];
    return getTask(taskId);
  };
}

/** GetTask's answer for a task that completed. */
const completed = (ids: ReturnType<typeof kernelIds>): A2aFrame => ({
  task: { id: ids.taskId, contextId: ids.contextId, status: { state: 'TASK_STATE_COMPLETED' } },
});

/** GetTask's answer for a task still working while these permissions wait sideband. */
const waitingSideband = (ids: ReturnType<typeof kernelIds>, permissions: KernelInputValue[]): A2aFrame => ({
  task: {
    id: ids.taskId,
    contextId: ids.contextId,
    status: { state: 'TASK_STATE_WORKING' },
    metadata: { iac_code: { iacCodeSessionId: ids.sessionId, pendingPermissions: permissions } },
  },
});

/** Answers `permission-1` on a thread whose turn already ended with nothing pending. */
async function answerEndedTurn(resume: Parameters<typeof resumeRun>[1]) {
  const first = await startEngineRun();
  const ids = kernelIds(first.admitted.contextId);
  const stream = await first.gateway.stream();
  stream.push(statusFrame(ids, 'TASK_STATE_WORKING'), ...endOfTurnFrames(ids, 'Done.'));
  stream.end();
  await first.delivered;
  return resumeRun(
    { ...first, ids, interruptId: 'permission-1', input: permission(ids), waiting: { task: {} } },
    resume,
  );
}

describe('Resume: one spec per branch (docs/behaviour/interrupts.md#resume-preparation)', () => {
  it('lost execution: nothing pending refuses the answer EXECUTION_LOST without asking A2A anything', async () => {
    const { sink, delivered, calls } = await answerEndedTurn(allow('permission-1'));
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'EXECUTION_LOST' });
    expect(calls()).toEqual([]);
  });

  it('lost execution: giving up the interrupts of an execution that already ended ends RUN_FINISHED success without asking A2A anything', async () => {
    const { sink, delivered, calls } = await answerEndedTurn(giveUp('permission-1'));
    await delivered;
    await expectConformantEvents(sink.events);
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(calls()).toEqual([]);
  });

  it('lost execution: an answer to an execution whose interrupts expired is refused EXECUTION_EXPIRED again, without asking A2A anything', async () => {
    const clock = new FakeClock();
    const parked = await parkedAt(permission, { clock, interruptTtlSeconds: 60 });
    clock.advance(61_000);
    const second = await resumeRun(parked, allow(parked.interruptId));
    await second.delivered;
    const { sink, delivered, calls } = await resumeRun(parked, allow(parked.interruptId), parked.waiting, {
      runId: 'run-3',
    });
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'EXECUTION_EXPIRED',
      message: en.executionExpired,
    });
    expect(calls()).toEqual([]);
  });

  it.each([
    {
      resume: 'an answer',
      entries: allow,
      ends: { type: 'RUN_ERROR', code: 'EXECUTION_EXPIRED', message: en.executionExpired },
    },
    { resume: 'giving it up', entries: giveUp, ends: { type: 'RUN_FINISHED', outcome: { type: 'success' } } },
  ])(
    'expiry: an expired interrupt meets $resume before any call, its task cancelled, pending cleared and the execution expired (docs/behaviour/interrupts.md#expiry)',
    async ({ entries, ends }) => {
      const clock = new FakeClock();
      const parked = await parkedAt(permission, { clock, interruptTtlSeconds: 60 });
      clock.advance(61_000);
      const { sink, delivered, calls, stored, gateway } = await resumeRun(
        parked,
        entries(parked.interruptId),
      );
      await delivered;
      await expectConformantEvents(sink.events);
      expect(lastEvent(sink.events)).toMatchObject(ends);
      expect(calls()).toEqual(['CancelTask']);
      expect(gateway.cancelledTaskIds).toEqual(['task-1']);
      const state = await stored();
      expect(state.execution.pending).toEqual({});
      expect(state.execution.endReason).toBe(END_REASON_EXPIRED);
    },
  );

  it('expiry found by the plan: a deadline that passes while GetTask is answered is refused EXECUTION_EXPIRED, the task cancelled and the execution expired', async () => {
    const clock = new FakeClock();
    const parked = await parkedAt(permission, { clock, interruptTtlSeconds: 60 });
    clock.advance(59_000);
    // The kernel takes two seconds to answer GetTask: the interrupt expires meanwhile.
    const getTask = parked.gateway.getTask.bind(parked.gateway);
    parked.gateway.getTask = (taskId: string) => (clock.advance(2_000), getTask(taskId));
    const { sink, delivered, calls, stored } = await resumeRun(parked, allow(parked.interruptId));
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'EXECUTION_EXPIRED' });
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'CancelTask']);
    const state = await stored();
    expect(state.execution.pending).toEqual({});
    expect(state.execution.endReason).toBe(END_REASON_EXPIRED);
  });

  it('session restore: a session the kernel cannot restore refuses EXECUTION_LOST and keeps the interrupt, before GetTask', async () => {
    const parked = await parkedAt(permission);
    parked.gateway.sessionRestorable = false;
    const { sink, delivered, calls, stored, interruptId } = await resumeRun(
      parked,
      allow(parked.interruptId),
    );
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'EXECUTION_LOST' });
    expect(calls()).toEqual(['ensure-restored']);
    expect(Object.keys((await stored()).execution.pending)).toEqual([interruptId]);
  });

  it.each([
    { about: 'another task', task: { id: 'task-9' } },
    { about: 'another context', task: { contextId: 'context-9' } },
  ])(
    'preflight: a GetTask answer about $about refuses A2A_PROTOCOL_ERROR, sends nothing and keeps the interrupt',
    async ({ task }) => {
      const parked = await parkedAt(permission, { sideband: true });
      const snapshot = { task: { ...(parked.waiting.task as Record<string, unknown>), ...task } };
      const { sink, delivered, calls, stored, interruptId } = await resumeRun(
        parked,
        allow(parked.interruptId),
        snapshot,
      );
      await delivered;
      expect(lastEvent(sink.events)).toMatchObject({
        type: 'RUN_ERROR',
        code: 'A2A_PROTOCOL_ERROR',
        message: en.taskIdentityMismatch,
      });
      expect(calls()).toEqual(['ensure-restored', 'GetTask']);
      expect(Object.keys((await stored()).execution.pending)).toEqual([interruptId]);
    },
  );

  it('forgotten execution: a task the kernel no longer knows ends a give-up resume with RUN_FINISHED and nothing pending', async () => {
    const parked = await parkedAt(permission);
    parked.gateway.forgetTasks();
    const { sink, delivered, calls, stored, admitted } = await resumeRun(
      parked,
      giveUp(parked.interruptId),
      null,
    );
    await delivered;
    await expectConformantEvents(sink.events);
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(calls()).toEqual(['ensure-restored', 'GetTask']);
    const state = await stored();
    expect(state.execution.pending).toEqual({});
    expect(state.terminalExecutionIds).toContain(admitted.execution.executionId);
  });

  it('preflight: a GetTask that fails (the kernel unreachable) is not a forgotten execution: a give-up ends A2A_UNAVAILABLE with the interrupt kept', async () => {
    const parked = await parkedAt(permission);
    parked.gateway.getTask = () => Promise.reject(new TypeError('fetch failed'));
    const { sink, delivered, calls, stored, interruptId } = await resumeRun(
      parked,
      giveUp(parked.interruptId),
      null,
    );
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'A2A_UNAVAILABLE' });
    expect(calls()).toEqual(['ensure-restored']);
    expect(Object.keys((await stored()).execution.pending)).toEqual([interruptId]);
  });

  it('taken by the kernel: an answer already in the task history is recorded, not sent again, and ends RESUME_ALREADY_APPLIED', async () => {
    const parked = await parkedAt(permission);
    const task = parked.waiting.task as Record<string, unknown>;
    const history = [
      {
        role: 'ROLE_USER',
        parts: [{ data: { kind: 'permission', inputId: parked.interruptId, decision: 'allow_once' } }],
      },
    ];
    const { sink, delivered, calls, stored, interruptId } = await resumeRun(
      parked,
      allow(parked.interruptId),
      {
        task: { ...task, history },
      },
    );
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
    expect(calls()).toEqual(['ensure-restored', 'GetTask']);
    const state = await stored();
    expect(state.execution.pending).toEqual({});
    expect(state.appliedResumeDigests.map((d) => d.interruptId)).toEqual([interruptId]);
  });

  it('taken by the kernel: an answer this execution recorded is judged by its record, not by the task history: another answer to it is refused RESUME_ALREADY_APPLIED and the record kept', async () => {
    const parked = await parkedAt(permission);
    // The thread document still lists the permission as pending and records an earlier answer to it.
    const state = await parked.stored();
    const earlier = {
      executionId: state.execution.executionId,
      interruptId: parked.interruptId,
      digest: 'digest-of-an-earlier-answer',
    };
    await parked.store.save({ ...state, appliedResumeDigests: [earlier] });
    const history = [
      {
        role: 'ROLE_USER',
        parts: [{ data: { kind: 'permission', inputId: parked.interruptId, decision: 'allow_once' } }],
      },
    ];
    const task = parked.waiting.task as Record<string, unknown>;
    const { sink, delivered, calls, stored } = await resumeRun(
      parked,
      allow(parked.interruptId),
      { task: { ...task, history } },
      { registry: new ThreadRegistry(parked.store, null, null, { threadCacheSize: 8 }) },
    );
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
    expect(calls()).toEqual(['ensure-restored', 'GetTask']);
    expect((await stored()).appliedResumeDigests).toEqual([earlier]);
  });

  it('already applied: the retry of an accepted answer, once the kernel waits on nothing more, sends nothing, clears pending durably and ends RESUME_ALREADY_APPLIED (docs/behaviour/interrupts.md#replay)', async () => {
    const parked = await parkedAt(permission, { sideband: true });
    // Run 2 answers it; the turn goes on to a second permission, where it ends.
    const second = await resumeRun(parked, allow(parked.interruptId));
    const subscribed = await second.gateway.stream(1);
    const next = permissionInput(parked.ids, shellPermissionSpec('tool-2', 'permission-2'));
    subscribed.push(sidebandPermissionsFrame(parked.ids, [next]));
    await second.delivered;
    expect(Object.keys((await second.stored()).execution.pending)).toEqual(['permission-2']);
    // Run 3 sends run 2's answer again; the kernel no longer waits on anything.
    const waitsOnNothing = {
      task: {
        ...(parked.waiting.task as Record<string, unknown>),
        metadata: { iac_code: { iacCodeSessionId: 'session-1', pendingPermissions: [] } },
      },
    };
    const { sink, delivered, calls, stored } = await resumeRun(
      parked,
      allow(parked.interruptId),
      waitsOnNothing,
      {
        runId: 'run-3',
      },
    );
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'RESUME_ALREADY_APPLIED',
      message: en.responseAlreadyApplied,
    });
    expect(calls()).toEqual(['ensure-restored', 'GetTask']);
    expect((await stored()).execution.pending).toEqual({});
  });

  it('reconcile: a task that finished meanwhile replaces the pending set, durably, before the refusal, its last text not replayed', async () => {
    const parked = await parkedAt(permission);
    const message = { messageId: 'm-end', role: 'ROLE_AGENT', parts: [{ text: 'Done elsewhere.' }] };
    const finished = {
      task: {
        id: 'task-1',
        contextId: parked.ids.contextId,
        status: { state: 'TASK_STATE_COMPLETED', message },
      },
    };
    const { sink, delivered, calls, stored } = await resumeRun(parked, allow(parked.interruptId), finished);
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR' });
    expect(sink.types()).not.toContain('TEXT_MESSAGE_CONTENT');
    expect(calls()).toEqual(['ensure-restored', 'GetTask']);
    expect((await stored()).execution.pending).toEqual({});
  });

  it('reconcile: a GetTask that shows the wait as stored writes nothing before the answer is sent', async () => {
    const parked = await parkedAt(permission, { sideband: true });
    const { gateway, store } = parked;
    const savesAt: { getTask?: number; answer?: number } = {};
    const getTask = gateway.getTask.bind(gateway);
    gateway.getTask = (taskId: string) => ((savesAt.getTask ??= store.saveCount), getTask(taskId));
    const sendMessage = gateway.sendMessage.bind(gateway);
    gateway.sendMessage = (message) => ((savesAt.answer = store.saveCount), sendMessage(message));
    const { delivered, ids, stored } = await resumeRun(parked, allow(parked.interruptId));
    const subscribed = await gateway.stream(1);
    subscribed.push(...endOfTurnFrames(ids, 'Ran it.'));
    subscribed.end();
    await delivered;
    expect(savesAt.answer).toBe(savesAt.getTask);
    expect((await stored()).execution.pending).toEqual({});
  });

  it('reconcile: a kept wait that GetTask now shows sideband is stored so, durably, before the refusal that follows', async () => {
    const first = await startEngineRun();
    const ids = kernelIds(first.admitted.contextId);
    const direct = permission(ids);
    const sideband = permissionInput(ids, shellPermissionSpec('tool-2', 'permission-2'));
    const stream = await first.gateway.stream();
    stream.push(
      statusFrame(ids, 'TASK_STATE_WORKING'),
      inputRequiredFrame(ids, { input: direct, pendingPermissions: [sideband] }),
    );
    stream.end();
    await first.delivered;
    expect((await first.stored()).execution.pending).toMatchObject({
      'permission-1': { sideband: false },
      'permission-2': { sideband: true },
    });
    const waiting = waitingSideband(ids, [direct, sideband]);
    // permission-1 is resolved without the payload a resolved answer needs.
    const { sink, delivered, calls, stored } = await resumeRun(
      { ...first, ids, interruptId: 'permission-1', input: direct, waiting },
      [{ interruptId: 'permission-1', status: 'resolved' }, ...allow('permission-2')],
    );
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_PAYLOAD_INVALID' });
    expect(calls()).toEqual(['ensure-restored', 'GetTask']);
    expect((await stored()).execution.pending).toMatchObject({
      'permission-1': { sideband: true },
      'permission-2': { sideband: true },
    });
  });

  it('preflight: a GetTask answer that names no context is no mismatch: the answer is sent', async () => {
    const parked = await parkedAt(permission, { sideband: true });
    const { contextId: _named, ...task } = parked.waiting.task as Record<string, unknown>;
    const { delivered, calls, gateway, ids } = await resumeRun(parked, allow(parked.interruptId), { task });
    const subscribed = await gateway.stream(1);
    subscribed.push(...endOfTurnFrames(ids, 'Ran it.'));
    subscribed.end();
    await delivered;
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendMessage', 'GetTask', 'SubscribeToTask']);
  });

  it('preflight: the Pipeline state the kernel keeps is replayed to the client, the stale Pipeline envelope of the GetTask answer is not (docs/behaviour/events.md#pipeline-recovery)', async () => {
    const parked = await parkedAt(permission);
    const task = parked.waiting.task as { metadata: { iac_code: Record<string, unknown> } };
    const stale = pipelineEnvelope(parked.ids, 'pipeline-1', 3, {
      eventType: 'pipeline_warning',
      scope: 'pipeline',
    });
    const snapshot = {
      task: { ...task, metadata: { iac_code: { ...task.metadata.iac_code, pipeline: stale } } },
    };
    parked.gateway.getPipelineState = () =>
      Promise.resolve({ snapshot: { pipelineRunId: 'pipeline-1', lastSequence: 3 }, events: [] });
    const { sink, delivered, gateway, ids } = await resumeRun(parked, allow(parked.interruptId), snapshot);
    const answer = await gateway.stream(1);
    answer.push(statusFrame(ids, 'TASK_STATE_WORKING'), ...endOfTurnFrames(ids, 'Ran it.'));
    answer.end();
    await delivered;
    await expectConformantEvents(sink.events);
    expect(sink.events).toContainEqual(
      expect.objectContaining({ type: 'ACTIVITY_SNAPSHOT', messageId: 'pipeline:pipeline-1', replace: true }),
    );
    expect(sink.events).not.toContainEqual(
      expect.objectContaining({ type: 'CUSTOM', name: 'iac-code.pipeline.v1' }),
    );
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it.each([
    { stream: 'runs to the end of the turn', frames: endOfTurnFrames, then: [] },
    { stream: 'stops at a boundary', frames: () => [], then: ['SubscribeToTask'] },
    {
      stream: 'ends at INPUT_REQUIRED asking nothing new',
      frames: (ids: ReturnType<typeof kernelIds>) => [statusFrame(ids, 'TASK_STATE_INPUT_REQUIRED')],
      then: [],
    },
  ])(
    'subscribe unless stopped: a direct permission answer streams, and a stream that $stream is followed so',
    async ({ frames, then }) => {
      const parked = await parkedAt(permission);
      const { sink, delivered, calls, gateway, ids } = await resumeRun(parked, allow(parked.interruptId));
      const answer = await gateway.stream(1);
      answer.push(statusFrame(ids, 'TASK_STATE_WORKING'), ...frames(ids, 'Ran it.'));
      answer.end();
      if (then.length > 0) {
        const subscribed = await gateway.stream(2);
        subscribed.push(...endOfTurnFrames(ids, 'Ran it.'));
        subscribed.end();
      }
      await delivered;
      await expectConformantEvents(sink.events);
      expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendStreamingMessage', ...then]);
      expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    },
  );

  it('snapshot then subscribe: a refusal of the gateway met in the subscription ends the run as it is, without asking GetTask again', async () => {
    const parked = await parkedAt(permission, { sideband: true });
    const { sink, delivered, calls, gateway, ids, store } = await resumeRun(
      parked,
      allow(parked.interruptId),
    );
    const subscribed = await gateway.stream(1);
    // The next wait cannot be made durable.
    store.failNextSaves(1);
    const next = permissionInput(ids, shellPermissionSpec('tool-2', 'permission-2'));
    subscribed.push(sidebandPermissionsFrame(ids, [next]));
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'STATE_PERSISTENCE_FAILED' });
    expect(calls()).toEqual([
      'ensure-restored',
      'GetTask',
      'SendMessage',
      'GetTask',
      'SubscribeToTask',
      'CancelTask',
    ]);
  });

  it('cancel: a cancelled question cancels the execution (awaited CancelTask) and ends RUN_ERROR CANCELLED (docs/behaviour/interrupts.md#forwarding-answers)', async () => {
    const parked = await parkedAt(question);
    const { sink, delivered, calls, stored, gateway } = await resumeRun(parked, giveUp(parked.interruptId));
    await delivered;
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'CancelTask']);
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
    expect((await stored()).execution.pending).toEqual({});
  });

  it('continue after a boundary: an answer stream that stops before the end of the turn is followed by SubscribeToTask (docs/behaviour/interrupts.md#continuation)', async () => {
    const parked = await parkedAt(question);
    const { sink, delivered, calls, gateway, ids } = await resumeRun(parked, [
      { interruptId: parked.interruptId, status: 'resolved', payload: { selectedId: 'plan-b' } },
    ]);
    const answer = await gateway.stream(1);
    answer.push(statusFrame(ids, 'TASK_STATE_WORKING'), statusFrame(ids, 'TASK_STATE_INPUT_REQUIRED'));
    answer.end();
    const subscribed = await gateway.stream(2);
    subscribed.push(textDeltaFrame(ids, 'Plan B it is.'), ...endOfTurnFrames(ids, 'Plan B it is.'));
    subscribed.end();
    await delivered;
    await expectConformantEvents(sink.events);
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendStreamingMessage', 'SubscribeToTask']);
    expect(sink.events).toContainEqual(
      expect.objectContaining({ type: 'TEXT_MESSAGE_CONTENT', delta: 'Plan B it is.' }),
    );
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('snapshot then subscribe: sideband answers go by SendMessage, then GetTask, then SubscribeToTask, and the answered wait is not raised again', async () => {
    const parked = await parkedAt(permission, { sideband: true });
    const { sink, delivered, calls, gateway, ids, stored } = await resumeRun(
      parked,
      allow(parked.interruptId),
    );
    const subscribed = await gateway.stream(1);
    subscribed.push(...endOfTurnFrames(ids, 'Ran it.'));
    subscribed.end();
    await delivered;
    await expectConformantEvents(sink.events);
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendMessage', 'GetTask', 'SubscribeToTask']);
    expect(gateway.sideMessages).toHaveLength(1);
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect((await stored()).execution.pending).toEqual({});
  });

  it('pipeline recovery: a sideband answer given while a Pipeline runs ends with what the Pipeline did meanwhile, recovered from the kernel before RUN_FINISHED (docs/behaviour/events.md#pipeline-recovery)', async () => {
    const first = await startEngineRun();
    const ids = kernelIds(first.admitted.contextId);
    const input = permission(ids);
    const started = pipelineEnvelope(ids, 'pipeline-run-1', 3, {
      eventType: 'pipeline_started',
      scope: 'pipeline',
    });
    const stream = await first.gateway.stream();
    stream.push(
      statusFrame(ids, 'TASK_STATE_WORKING'),
      pipelineFrame(ids, started),
      sidebandPermissionsFrame(ids, [input]),
    );
    stream.end();
    await first.delivered;
    // The preflight's catch-up finds nothing new; the recovery at the end finds the Pipeline completed.
    const afterSequences: unknown[] = [];
    const completedPipeline = {
      snapshot: { pipelineRunId: 'pipeline-run-1', lastSequence: 7, status: 'completed' },
      events: [],
    };
    first.gateway.getPipelineState = async (...args: unknown[]) => {
      afterSequences.push(args[1]);
      return afterSequences.length > 1 ? completedPipeline : undefined;
    };
    const { sink, delivered } = await resumeRun(
      { ...first, ids, interruptId: 'permission-1', input, waiting: waitingSideband(ids, [input]) },
      allow('permission-1'),
    );
    const subscribed = await first.gateway.stream(1);
    subscribed.push(...endOfTurnFrames(ids, 'Ran it.'));
    subscribed.end();
    await delivered;
    await expectConformantEvents(sink.events);
    expect(afterSequences).toEqual([3, 3]);
    // Once, at the end: after the turn's text, before RUN_FINISHED.
    const recovered = sink.events.filter((event) => event.type === 'ACTIVITY_SNAPSHOT');
    expect(recovered).toEqual([
      expect.objectContaining({
        replace: true,
        content: expect.objectContaining({ snapshot: completedPipeline.snapshot }),
      }),
    ]);
    const types = sink.types();
    expect(types.indexOf('ACTIVITY_SNAPSHOT')).toBeGreaterThan(types.indexOf('TEXT_MESSAGE_CONTENT'));
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('interrupt again: a GetTask that reveals a wait the gateway did not know ends RUN_FINISHED(interrupt) listing both, sending nothing', async () => {
    const parked = await parkedAt(permission, { sideband: true });
    const second = permissionInput(parked.ids, shellPermissionSpec('tool-2', 'permission-2'));
    const task = parked.waiting.task as Record<string, unknown>;
    const snapshot = {
      task: {
        ...task,
        metadata: { iac_code: { iacCodeSessionId: 'session-1', pendingPermissions: [parked.input, second] } },
      },
    };
    const { sink, delivered, calls, stored } = await resumeRun(parked, allow(parked.interruptId), snapshot);
    await delivered;
    await expectConformantEvents(sink.events);
    expect(lastEvent(sink.events)).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: {
        type: 'interrupt',
        interrupts: [
          expect.objectContaining({ id: parked.interruptId }),
          expect.objectContaining({ id: 'permission-2' }),
        ],
      },
    });
    expect(calls()).toEqual(['ensure-restored', 'GetTask']);
    expect(Object.keys((await stored()).execution.pending).sort()).toEqual([
      parked.interruptId,
      'permission-2',
    ]);
  });

  it.each([
    {
      getTask: 'a task still working',
      state: 'TASK_STATE_WORKING',
      then: ['CancelTask'],
      ends: { type: 'RUN_ERROR', code: 'A2A_UNAVAILABLE' },
    },
    {
      getTask: 'a task that completed',
      state: 'TASK_STATE_COMPLETED',
      then: [],
      ends: { type: 'RUN_FINISHED', outcome: { type: 'success' } },
    },
  ])(
    'continue after a boundary, the subscription ending with nothing new: GetTask decides, and $getTask ends the run so (docs/behaviour/interrupts.md#continuation)',
    async ({ state, then, ends }) => {
      const parked = await parkedAt(question);
      const { sink, delivered, calls, gateway, ids } = await resumeRun(parked, [
        { interruptId: parked.interruptId, status: 'resolved', payload: { selectedId: 'plan-b' } },
      ]);
      const answer = await gateway.stream(1);
      // From now on GetTask finds the task in `state`, with nothing to answer; a working one shows the status
      // text already streamed, which is not sent again.
      const message = { messageId: 'm-last', role: 'ROLE_AGENT', parts: [{ text: 'Thinking it over.' }] };
      const status = state === 'TASK_STATE_WORKING' ? { state, message } : { state };
      gateway.taskSnapshot = { task: { id: ids.taskId, contextId: ids.contextId, status } };
      answer.push(statusFrame(ids, 'TASK_STATE_WORKING'), statusFrame(ids, 'TASK_STATE_INPUT_REQUIRED'));
      answer.end();
      // The subscription opens with the working task, as A2A's does, and ends there.
      const subscribed = await gateway.stream(2);
      subscribed.push({
        task: { id: ids.taskId, contextId: ids.contextId, status: { state: 'TASK_STATE_WORKING', message } },
      });
      subscribed.end();
      await delivered;
      await expectConformantEvents(sink.events);
      expect(calls()).toEqual([
        'ensure-restored',
        'GetTask',
        'SendStreamingMessage',
        'SubscribeToTask',
        'GetTask',
        ...then,
      ]);
      expect(lastEvent(sink.events)).toMatchObject(ends);
      expect(sink.events).not.toContainEqual(expect.objectContaining({ delta: 'Thinking it over.' }));
    },
  );

  it('follow the stream: an answer stream that runs to the end of the turn is the whole turn, with no SubscribeToTask', async () => {
    const parked = await parkedAt(question);
    const { sink, delivered, calls, gateway, ids } = await resumeRun(parked, [
      { interruptId: parked.interruptId, status: 'resolved', payload: { selectedId: 'plan-b' } },
    ]);
    const answer = await gateway.stream(1);
    answer.push(statusFrame(ids, 'TASK_STATE_WORKING'), ...endOfTurnFrames(ids, 'Plan B it is.'));
    answer.end();
    await delivered;
    await expectConformantEvents(sink.events);
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendStreamingMessage']);
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('snapshot then subscribe: a task the GetTask after the sideband answer finds completed is not subscribed to', async () => {
    const parked = await parkedAt(permission, { sideband: true });
    // The preflight's GetTask shows the wait, the one after SendMessage the task done.
    answerGetTasks(parked.gateway, parked.waiting, completed(parked.ids));
    const { sink, delivered, calls } = await resumeRun(parked, allow(parked.interruptId), null);
    await delivered;
    await expectConformantEvents(sink.events);
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendMessage', 'GetTask']);
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it.each([
    {
      subscription: 'fails',
      failure: new TypeError('terminated'),
      task: 'has completed',
      state: 'TASK_STATE_COMPLETED',
      ends: { type: 'RUN_FINISHED', outcome: { type: 'success' } },
    },
    {
      subscription: 'fails',
      failure: new TypeError('terminated'),
      task: 'still works',
      state: 'TASK_STATE_WORKING',
      ends: { type: 'RUN_ERROR', code: 'A2A_UNAVAILABLE' },
    },
    {
      // The kernel's answer after a restart: up, but no longer running the task; the run ends on that answer.
      subscription: 'fails with task not found',
      failure: new TaskNotFoundError('Task not found: task-1'),
      task: 'still works',
      state: 'TASK_STATE_WORKING',
      ends: { type: 'RUN_ERROR', code: 'EXECUTION_LOST', message: en.taskToResumeUnavailable },
    },
    {
      subscription: 'ends empty',
      failure: undefined,
      task: 'still works',
      state: 'TASK_STATE_WORKING',
      ends: { type: 'RUN_ERROR', code: 'A2A_UNAVAILABLE' },
    },
  ])(
    'snapshot then subscribe, the subscription $subscription: GetTask decides, and a task that $task ends the run so',
    async ({ failure, state, ends }) => {
      const parked = await parkedAt(permission, { sideband: true });
      const { sink, delivered, calls, gateway, ids } = await resumeRun(parked, allow(parked.interruptId));
      const subscribed = await gateway.stream(1);
      gateway.taskSnapshot = { task: { id: ids.taskId, contextId: ids.contextId, status: { state } } };
      if (failure) subscribed.fail(failure);
      else subscribed.end();
      await delivered;
      await expectConformantEvents(sink.events);
      expect(lastEvent(sink.events)).toMatchObject(ends);
      expect(calls().slice(0, 6)).toEqual([
        'ensure-restored',
        'GetTask',
        'SendMessage',
        'GetTask',
        'SubscribeToTask',
        'GetTask',
      ]);
    },
  );

  describe('re-adoption of an orphaned turn (docs/behaviour/state.md#re-adoption)', () => {
    /**
     * Run 2's answer was accepted (recorded, nothing pending), then its replica died before ending the
     * execution: the thread as it left it, resumed again on another replica (its own registry, same store).
     */
    const retryOfOrphanedTurn = async (
      snapshot: (ids: ReturnType<typeof kernelIds>) => A2aFrame,
      retry: (interruptId: string) => unknown[] = allow,
    ) => {
      const parked = await parkedAt(permission);
      const second = await resumeRun(parked, allow(parked.interruptId));
      const answer = await second.gateway.stream(1);
      answer.push(statusFrame(second.ids, 'TASK_STATE_WORKING'));
      await second.sink.written(2);
      const orphaned = await second.stored();
      expect(orphaned.execution.pending).toEqual({});
      answer.push(...endOfTurnFrames(second.ids, 'Ran it.'));
      answer.end();
      await second.delivered;
      await parked.store.save(orphaned);
      const registry = new ThreadRegistry(parked.store, null, null, { threadCacheSize: 8 });
      const third = await resumeRun(parked, retry(parked.interruptId), snapshot(parked.ids), {
        runId: 'run-3',
        registry,
      });
      return { ...third, executionId: orphaned.execution.executionId };
    };

    it('follows a task still working with SubscribeToTask, sends nothing again, and ends RESUME_ALREADY_APPLIED with the execution ended', async () => {
      const { gateway, sink, delivered, calls, stored, ids, executionId } = await retryOfOrphanedTurn(
        (ids) => ({
          task: { id: ids.taskId, contextId: ids.contextId, status: { state: 'TASK_STATE_WORKING' } },
        }),
      );
      const subscribed = await gateway.stream(2);
      subscribed.push(textDeltaFrame(ids, 'The rest.'), ...endOfTurnFrames(ids, 'The rest.'));
      subscribed.end();
      await delivered;
      await expectConformantEvents(sink.events);
      expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SubscribeToTask']);
      expect(sink.events).toContainEqual(
        expect.objectContaining({ type: 'TEXT_MESSAGE_CONTENT', delta: 'The rest.' }),
      );
      expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
      const state = await stored();
      expect(state.terminalExecutionIds).toContain(executionId);
      expect(state.execution.taskId).toBeNull();
    });

    it('refuses a retry that changes the applied answer EXECUTION_LOST, asking A2A nothing', async () => {
      const deny = (interruptId: string) => [
        { interruptId, status: 'resolved', payload: { decision: 'deny' } },
      ];
      const { sink, delivered, calls } = await retryOfOrphanedTurn(completed, deny);
      await delivered;
      expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'EXECUTION_LOST' });
      expect(calls()).toEqual([]);
    });

    it('ends with the new interrupt a followed turn reaches, recorded as pending, not with RESUME_ALREADY_APPLIED', async () => {
      const { gateway, sink, delivered, calls, stored, ids } = await retryOfOrphanedTurn((ids) => ({
        task: { id: ids.taskId, contextId: ids.contextId, status: { state: 'TASK_STATE_WORKING' } },
      }));
      const subscribed = await gateway.stream(2);
      const next = permissionInput(ids, shellPermissionSpec('tool-2', 'permission-2'));
      subscribed.push(inputRequiredFrame(ids, { input: next }));
      subscribed.end();
      await delivered;
      await expectConformantEvents(sink.events);
      expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SubscribeToTask']);
      expect(lastEvent(sink.events)).toMatchObject({
        type: 'RUN_FINISHED',
        outcome: { type: 'interrupt', interrupts: [expect.objectContaining({ id: 'permission-2' })] },
      });
      expect(Object.keys((await stored()).execution.pending)).toEqual(['permission-2']);
    });

    it('takes the text of a turn that ended while nobody listened from its snapshot, without subscribing', async () => {
      const { sink, delivered, calls } = await retryOfOrphanedTurn((ids) => ({
        task: {
          id: ids.taskId,
          contextId: ids.contextId,
          status: {
            state: 'TASK_STATE_COMPLETED',
            message: { messageId: 'm-end', role: 'ROLE_AGENT', parts: [{ text: 'All done.' }] },
          },
        },
      }));
      await delivered;
      await expectConformantEvents(sink.events);
      expect(calls()).toEqual(['ensure-restored', 'GetTask']);
      expect(sink.events).toContainEqual(
        expect.objectContaining({ type: 'TEXT_MESSAGE_CONTENT', delta: 'All done.' }),
      );
      expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
    });
  });
});
