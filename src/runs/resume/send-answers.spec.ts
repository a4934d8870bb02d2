import { fromJsonRpcErrorResponse } from '@a2a-js/sdk/errors';
import { endOfTurnFrames, statusFrame } from '../../demo-kernel/kernel-frames';
import {
  inputRequiredFrame,
  permissionInput,
  questionInput,
  sidebandPermissionsFrame,
} from '../../demo-kernel/kernel-inputs';
import { QUESTION_OPTIONS, shellPermissionSpec } from '../../demo-kernel/interrupt-scripts';
import type { KernelInputValue } from '../../demo-kernel/kernel-script';
import { EN as en } from '../../i18n/catalogue/en';
import { expectConformantEvents } from '../../../test/support/agui-conformance';
import {
  allowOnce,
  kernelIds,
  lastEvent,
  parkedAt,
  resumeEngineRun as resumeRun,
  shellPermission as permission,
  startEngineRun,
} from '../../../test/support/engine-run';
import type { A2aFrame } from '../../wire/a2a-wire';

type Ids = ReturnType<typeof kernelIds>;

const question = (ids: Ids) =>
  questionInput(ids, {
    inputId: 'question-1',
    toolUseId: 'tool-q',
    prompt: 'Which plan?',
    options: QUESTION_OPTIONS,
  });
const secondPermission = (ids: Ids) => permissionInput(ids, shellPermissionSpec('tool-2', 'permission-2'));

const allow = (...interruptIds: string[]) => interruptIds.flatMap(allowOnce);
const choosePlanB = (interruptId: string) => ({
  interruptId,
  status: 'resolved',
  payload: { selectedId: 'plan-b' },
});

/** A JSON-RPC error frame as the A2A client rebuilds it: the kernel refused the call. */
const refusal = () =>
  fromJsonRpcErrorResponse({
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32602, message: 'Invalid params' },
  } as Parameters<typeof fromJsonRpcErrorResponse>[0]);

/** A Pipeline envelope that moves the thread's Pipeline cursor to 8. */
const pipelineAt8 = (ids: Ids) => [
  statusFrame(ids, 'TASK_STATE_WORKING', {
    iacCode: { pipeline: { eventId: 'stack-8', eventType: 'stack_progress', sequence: 8 } },
  }),
];

/**
 * A run of thread-1 that ended waiting on a direct `input` and/or sideband `pendingPermissions`, after the
 * `before` frames; with the GetTask answer of the task still waiting on them.
 */
async function parkedOn(
  waits: (ids: Ids) => { input?: KernelInputValue; pendingPermissions?: KernelInputValue[] },
  before: (ids: Ids) => A2aFrame[] = () => [],
) {
  const first = await startEngineRun();
  const ids = kernelIds(first.admitted.contextId);
  const { input, pendingPermissions = [] } = waits(ids);
  const stream = await first.gateway.stream();
  stream.push(statusFrame(ids, 'TASK_STATE_WORKING'), ...before(ids));
  stream.push(
    input
      ? inputRequiredFrame(ids, { input, pendingPermissions })
      : sidebandPermissionsFrame(ids, pendingPermissions),
  );
  stream.end();
  await first.delivered;
  const waiting: A2aFrame = {
    task: {
      id: ids.taskId,
      contextId: ids.contextId,
      status: { state: input ? 'TASK_STATE_INPUT_REQUIRED' : 'TASK_STATE_WORKING' },
      metadata: {
        iac_code: {
          iacCodeSessionId: ids.sessionId,
          ...(input ? { input } : {}),
          ...(pendingPermissions.length > 0 ? { pendingPermissions } : {}),
        },
      },
    },
  };
  const firstInput = (input ?? pendingPermissions[0]) as KernelInputValue;
  return { ...first, ids, input: firstInput, interruptId: String(firstInput.inputId), waiting };
}

describe('Sending answers: one spec per branch (docs/behaviour/interrupts.md#forwarding-answers)', () => {
  it.each([
    {
      answer: 'a permission answer',
      park: () => parkedAt(permission),
      entries: allow('permission-1'),
      stream: 'closes before its first frame',
      fails: undefined,
      message: en.permissionResponseNotAccepted,
    },
    {
      answer: 'a question answer',
      park: () => parkedAt(question),
      entries: [choosePlanB('question-1')],
      stream: 'closes before its first frame',
      fails: undefined,
      message: en.interruptResponseNotAccepted,
    },
    {
      answer: 'a permission answer',
      park: () => parkedAt(permission),
      entries: allow('permission-1'),
      stream: 'fails with a JSON-RPC error before its first frame',
      fails: refusal,
      message: en.interruptResponseRejected,
    },
  ])(
    'not accepted: $answer whose stream $stream ends A2A_UNAVAILABLE, the interrupt kept, nothing cancelled or followed',
    async ({ park, entries, fails, message }) => {
      const parked = await park();
      const { sink, delivered, calls, gateway, stored, interruptId } = await resumeRun(parked, entries);
      const answer = await gateway.stream(1);
      if (fails) answer.fail(fails());
      else answer.end();
      await delivered;
      await expectConformantEvents(sink.events);
      expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'A2A_UNAVAILABLE', message });
      expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendStreamingMessage']);
      expect(Object.keys((await stored()).execution.pending)).toEqual([interruptId]);
    },
  );

  it('accepted, then failed: a stream that fails after its first frame keeps the answer applied, cancels the task and ends A2A_UNAVAILABLE', async () => {
    const parked = await parkedAt(permission);
    const { sink, delivered, calls, gateway, stored, ids, interruptId } = await resumeRun(
      parked,
      allow(parked.interruptId),
    );
    const answer = await gateway.stream(1);
    answer.push(statusFrame(ids, 'TASK_STATE_WORKING'));
    answer.fail(refusal());
    await delivered;
    await expectConformantEvents(sink.events);
    expect(lastEvent(sink.events)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'A2A_UNAVAILABLE',
      message: en.a2aUnavailable,
    });
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendStreamingMessage', 'CancelTask']);
    const state = await stored();
    expect(state.execution.pending).toEqual({});
    expect(state.appliedResumeDigests.map((d) => d.interruptId)).toEqual([interruptId]);
  });

  it('sideband answers one by one: a second SendMessage the kernel refuses keeps only its own interrupt pending, the first stays applied', async () => {
    const parked = await parkedOn((ids) => ({
      pendingPermissions: [permission(ids), secondPermission(ids)],
    }));
    const send = parked.gateway.sendMessage.bind(parked.gateway);
    parked.gateway.sendMessage = async (message) => {
      const answered = await send(message);
      if (message.messageId === 'agui-resume-permission-2') throw refusal();
      return answered;
    };
    const { sink, delivered, calls, stored } = await resumeRun(parked, allow('permission-1', 'permission-2'));
    await delivered;
    await expectConformantEvents(sink.events);
    expect(lastEvent(sink.events)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'A2A_UNAVAILABLE',
      message: en.interruptResponseRejected,
    });
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendMessage', 'SendMessage']);
    const state = await stored();
    expect(Object.keys(state.execution.pending)).toEqual(['permission-2']);
    expect(state.appliedResumeDigests.map((d) => d.interruptId)).toEqual(['permission-1']);
  });

  it('answers in flight: a direct and a sideband permission answered together, the first stream showing the second still waiting, send both and raise nothing', async () => {
    const parked = await parkedOn((ids) => ({
      input: permission(ids),
      pendingPermissions: [secondPermission(ids)],
    }));
    const { sink, delivered, calls, gateway, stored, ids } = await resumeRun(
      parked,
      allow('permission-1', 'permission-2'),
    );
    const first = await gateway.stream(1);
    first.push(
      statusFrame(ids, 'TASK_STATE_WORKING'),
      inputRequiredFrame(ids, { pendingPermissions: [secondPermission(ids)] }),
    );
    first.end();
    const second = await gateway.stream(2);
    second.push(statusFrame(ids, 'TASK_STATE_WORKING'), ...endOfTurnFrames(ids, 'Both checks are decided.'));
    second.end();
    await delivered;
    await expectConformantEvents(sink.events);
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(calls()).toEqual(['ensure-restored', 'GetTask', 'SendStreamingMessage', 'SendStreamingMessage']);
    expect((await stored()).execution.pending).toEqual({});
  });

  it('tool results: an accepted question answer emits its tool result, the answer text, once', async () => {
    const parked = await parkedAt(question);
    const { sink, delivered, gateway, ids } = await resumeRun(parked, [choosePlanB(parked.interruptId)]);
    const answer = await gateway.stream(1);
    answer.push(statusFrame(ids, 'TASK_STATE_WORKING'), ...endOfTurnFrames(ids, 'Plan B it is.'));
    answer.end();
    await delivered;
    await expectConformantEvents(sink.events);
    expect(sink.events.filter((event) => event.type === 'TOOL_CALL_RESULT')).toEqual([
      expect.objectContaining({ toolCallId: 'tool-q', content: 'Plan B' }),
    ]);
  });

  it.each([
    {
      answer: 'a sideband permission answer',
      sequence: 8,
      park: () => parkedOn((ids) => ({ pendingPermissions: [permission(ids)] }), pipelineAt8),
      entries: allow('permission-1'),
      asks: [8, 8],
    },
    {
      answer: 'a permission answered with a question (sent sideband)',
      sequence: 8,
      park: () =>
        parkedOn((ids) => ({ input: question(ids), pendingPermissions: [permission(ids)] }), pipelineAt8),
      entries: [...allow('permission-1'), choosePlanB('question-1')],
      asks: [8, 8],
    },
    {
      answer: 'a question answer, whose own stream carries every envelope,',
      sequence: 8,
      park: () => parkedOn((ids) => ({ input: question(ids) }), pipelineAt8),
      entries: [choosePlanB('question-1')],
      asks: [8],
    },
    {
      answer: 'a sideband permission answer',
      sequence: 0,
      park: () => parkedOn((ids) => ({ pendingPermissions: [permission(ids)] })),
      entries: allow('permission-1'),
      asks: [0],
    },
  ])(
    'Pipeline recovery (docs/behaviour/events.md#pipeline-recovery): $answer on a thread whose Pipeline is at $sequence asks the Pipeline state after $asks (the preflight catch-up, then the recovery at the end)',
    async ({ park, entries, asks }) => {
      const parked = await park();
      parked.gateway.pipelineState = { snapshot: { pipelineRunId: 'pipeline-1', lastSequence: 9 } };
      const { sink, delivered, gateway, ids } = await resumeRun(parked, entries);
      // The turn's stream: the subscription after sideband answers, else the answer's own.
      const stream = await gateway.stream(1);
      stream.push(...endOfTurnFrames(ids, 'Done.'));
      stream.end();
      await delivered;
      await expectConformantEvents(sink.events);
      expect(gateway.pipelineStateAfter).toEqual(asks);
      // Each recovered state reaches the client as its ACTIVITY_SNAPSHOT.
      expect(sink.events.filter((event) => event.type === 'ACTIVITY_SNAPSHOT')).toHaveLength(asks.length);
      expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    },
  );
});
