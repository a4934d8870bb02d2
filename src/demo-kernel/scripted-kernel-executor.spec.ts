import { SendMessageRequest, Task, type Message } from '@a2a-js/sdk';
import { RequestContext, ServerCallContext } from '@a2a-js/sdk/server';
import { RecordingEventBus } from '../../test/support/fakes/recording-event-bus';
import type { Clock } from '../common/clock';
import { faultOfEnvelope } from './faults/kernel-fault-marker';
import { kernelSessionId, textDeltaFrame } from './kernel-frames';
import { inputRequiredFrame, permissionInput, sidebandPermissionsFrame } from './kernel-inputs';
import { shellPermissionSpec } from './interrupt-scripts';
import type {
  KernelAnswer,
  KernelScript,
  KernelScriptBook,
  KernelStep,
  KernelTurnInput,
} from './kernel-script';
import { pipelineEnvelope } from './pipeline-envelopes';
import { ScriptedKernelExecutor } from './scripted-kernel-executor';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const NOW = Date.UTC(2026, 10, 30, 12, 0, 0, 0);
const fixedClock: Clock = { now: () => NOW, uuid: () => 'uuid-1' };

/** A book with one script per first word of the message. */
function bookOf(
  scripts: Record<string, (input: KernelTurnInput) => readonly KernelStep[]>,
): KernelScriptBook {
  return {
    select: (userText): KernelScript => {
      const name = userText.split(' ')[0];
      return { name, steps: scripts[name] };
    },
  };
}

const say = (input: KernelTurnInput, text: string): KernelStep => ({
  kind: 'frame',
  frame: textDeltaFrame(input, text),
});

const book = bookOf({
  hello: (input) => [say(input, 'Hi'), say(input, ' there')],
  wait: (input) => [say(input, 'Waiting'), { kind: 'pause', ms: 60_000 }, say(input, 'never')],
  silent: () => [{ kind: 'park', answersCancel: true }],
  stuck: () => [{ kind: 'park', answersCancel: false }],
  drop: (input) => [say(input, 'Partial'), { kind: 'fault', fault: { kind: 'drop' } }, say(input, 'never')],
  cut: (input) => [
    say(input, 'Before'),
    { kind: 'fault', fault: { kind: 'end-stream' } },
    say(input, 'After'),
  ],
  ask: (input) => {
    const permission = permissionInput(input, shellPermissionSpec('tool-1'));
    return [
      say(input, 'Before'),
      {
        kind: 'await',
        inputIds: ['permission-1'],
        parkFrame: inputRequiredFrame(input, { input: permission }),
        resume: (answer) => [say(input, `After ${answer.kind === 'permission' ? answer.decision : ''}`)],
      },
    ];
  },
  sideband: (input) => {
    const permission = permissionInput(input, shellPermissionSpec('tool-1'));
    const envelope = pipelineEnvelope(input, 'run-1', 1, {
      eventType: 'permission_requested',
      scope: 'candidate',
    });
    return [
      { kind: 'frame', frame: sidebandPermissionsFrame(input, [permission], { pipeline: envelope }) },
      say(input, 'Still running'),
      { kind: 'await', inputIds: ['permission-1'], resume: () => [say(input, 'Resumed')] },
    ];
  },
});

function contextFor(text: string, task?: Task): RequestContext {
  const request = SendMessageRequest.fromJSON({
    message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text }], contextId: 'ctx-1', taskId: task?.id },
  });
  return new RequestContext(request, task?.id ?? 'task-1', 'ctx-1', new ServerCallContext(), task);
}

const stateOf = (frame: Json): string => frame.task?.status.state ?? frame.statusUpdate?.status.state;
const textOf = (frame: Json): string | undefined => frame.statusUpdate?.status.message?.parts[0].text;

/** Resolves once `bus` has `count` frames (the executor publishes from timers and promises). */
async function framesReached(bus: RecordingEventBus, count: number): Promise<void> {
  for (let i = 0; i < 200 && bus.frames.length < count; i++) await new Promise((r) => setTimeout(r, 1));
  expect(bus.frames.length).toBeGreaterThanOrEqual(count);
}

describe('ScriptedKernelExecutor', () => {
  let executor: ScriptedKernelExecutor;
  beforeEach(() => {
    executor = new ScriptedKernelExecutor(book, fixedClock);
  });
  afterEach(() => executor.dispose());

  it('opens a new task like the kernel, then plays the script in order', async () => {
    const bus = new RecordingEventBus();
    await executor.execute(contextFor('hello'), bus);

    expect(bus.frames.map(stateOf)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
    ]);
    const task = bus.frames[0].task as Json;
    expect(task).toMatchObject({ id: 'task-1', contextId: 'ctx-1' });
    expect(task.history.map((message: Message) => message.messageId)).toEqual(['m-1']);
    expect(bus.frames.slice(3).map(textOf)).toEqual(['Hi', ' there']);
    expect(bus.frames.slice(1).map((frame) => frame.statusUpdate.metadata.iac_code.iacCodeSessionId)).toEqual(
      Array(4).fill(kernelSessionId('ctx-1')),
    );
    expect(new Set(bus.frames.map((frame) => (frame.task ?? frame.statusUpdate).status.timestamp))).toEqual(
      new Set([new Date(NOW).toISOString()]),
    );
  });

  it('opens a follow-up on an existing task with its snapshot, then WORKING (no second SUBMITTED)', async () => {
    const existing = Task.fromJSON({
      id: 'task-7',
      contextId: 'ctx-1',
      status: { state: 'TASK_STATE_INPUT_REQUIRED' },
    });
    const bus = new RecordingEventBus();
    await executor.execute(contextFor('hello', existing), bus);
    expect(bus.frames.map(stateOf).slice(0, 2)).toEqual(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_WORKING']);
    expect(bus.frames[0].task.id).toBe('task-7');
  });

  it('cancel during a pause publishes CANCELED at once and skips the rest of the script', async () => {
    const bus = new RecordingEventBus();
    const running = executor.execute(contextFor('wait'), bus);
    await framesReached(bus, 4);
    await executor.cancelTask('task-1', bus);
    await running;
    expect(bus.frames.map(textOf).filter(Boolean)).toEqual(['Waiting']);
    expect(stateOf(bus.frames[bus.frames.length - 1])).toBe('TASK_STATE_CANCELED');
  });

  it('cancel of a parked silent task publishes CANCELED and ends the turn', async () => {
    const bus = new RecordingEventBus();
    const running = executor.execute(contextFor('silent'), bus);
    await framesReached(bus, 3);
    await executor.cancelTask('task-1', bus);
    await running;
    expect(bus.frames.map(stateOf)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'TASK_STATE_CANCELED',
    ]);
  });

  it('cancel after the turn ended publishes CANCELED itself, with the task context (docs/behaviour/a2a.md#sdk-notes)', async () => {
    await executor.execute(contextFor('hello'), new RecordingEventBus());
    const cancelBus = new RecordingEventBus();
    await executor.cancelTask('task-1', cancelBus);
    expect(cancelBus.frames).toHaveLength(1);
    expect(cancelBus.frames[0].statusUpdate).toMatchObject({
      taskId: 'task-1',
      contextId: 'ctx-1',
      status: { state: 'TASK_STATE_CANCELED' },
    });
  });

  it('hang-cancel: cancel publishes nothing; only dispose ends the turn, still silently', async () => {
    const bus = new RecordingEventBus();
    const running = executor.execute(contextFor('stuck'), bus);
    await framesReached(bus, 3);
    await executor.cancelTask('task-1', bus);
    await new Promise((r) => setTimeout(r, 20));
    expect(bus.frames).toHaveLength(3);
    executor.dispose();
    await running;
    expect(bus.frames).toHaveLength(3);
  });

  it('a fault step publishes a marker the transport recognises on the wire, and stops the script', async () => {
    const bus = new RecordingEventBus();
    await executor.execute(contextFor('drop'), bus);
    const last = bus.frames[bus.frames.length - 1];
    expect(faultOfEnvelope({ jsonrpc: '2.0', id: 1, result: last })).toEqual({ kind: 'drop' });
    expect(bus.frames.map(textOf).filter(Boolean)).toEqual(['Partial']);
  });

  it('an end-stream fault only marks where the open stream ends: the script goes on (docs/behaviour/interrupts.md#continuation)', async () => {
    const bus = new RecordingEventBus();
    await executor.execute(contextFor('cut'), bus);
    const markers = bus.frames.filter((frame) => faultOfEnvelope({ jsonrpc: '2.0', id: 1, result: frame }));
    expect(markers).toHaveLength(1);
    expect(faultOfEnvelope({ jsonrpc: '2.0', id: 1, result: markers[0] })).toEqual({ kind: 'end-stream' });
    expect(bus.frames.map(textOf).filter(Boolean)).toEqual(['Before', 'After']);
    expect(bus.frames.indexOf(markers[0])).toBe(
      bus.frames.findIndex((frame) => textOf(frame) === 'After') - 1,
    );
  });
});

describe('ScriptedKernelExecutor: waiting for input', () => {
  let executor: ScriptedKernelExecutor;
  beforeEach(() => {
    executor = new ScriptedKernelExecutor(book, fixedClock);
  });
  afterEach(() => executor.dispose());

  const allow: KernelAnswer = { kind: 'permission', inputId: 'permission-1', decision: 'allow_once' };
  const answerOf = (task: Task): RequestContext => {
    const request = SendMessageRequest.fromJSON({
      message: {
        messageId: 'm-2',
        role: 'ROLE_USER',
        contextId: 'ctx-1',
        taskId: task.id,
        parts: [{ data: { decision: 'allow_once' }, mediaType: 'application/json' }],
      },
    });
    return new RequestContext(request, task.id, 'ctx-1', new ServerCallContext(), task);
  };
  const parkedTask = Task.fromJSON({
    id: 'task-1',
    contextId: 'ctx-1',
    status: { state: 'TASK_STATE_INPUT_REQUIRED' },
  });

  it('parks at INPUT_REQUIRED, registers the input, and ends the turn', async () => {
    const bus = new RecordingEventBus();
    await executor.execute(contextFor('ask'), bus);
    expect(bus.frames.map(stateOf).slice(-2)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED']);
    expect(bus.frames[bus.frames.length - 1].statusUpdate.metadata.iac_code.input.inputId).toBe(
      'permission-1',
    );
    expect(executor.state.inputs.viewOf('task-1')?.values.map((value) => value.inputId)).toEqual([
      'permission-1',
    ]);
  });

  it('the next message on the task continues the parked turn with the delivered answer', async () => {
    await executor.execute(contextFor('ask'), new RecordingEventBus());
    expect(executor.state.inputs.accept('task-1', allow)).toBe('new-turn');
    executor.state.inputs.deliver('task-1', allow);
    const bus = new RecordingEventBus();
    await executor.execute(answerOf(parkedTask), bus);
    expect(bus.frames.map(stateOf)).toEqual([
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
    ]);
    expect(textOf(bus.frames[2])).toBe('After allow_once');
    expect(executor.state.inputs.viewOf('task-1')).toBeUndefined();
  });

  it('a sideband wait keeps the turn running until the answer arrives; envelopes are journaled', async () => {
    const bus = new RecordingEventBus();
    const running = executor.execute(contextFor('sideband'), bus);
    await framesReached(bus, 5);
    expect(executor.state.inputs.accept('task-1', allow)).toBe('running-turn');
    executor.state.inputs.deliver('task-1', allow);
    await running;
    expect(bus.frames.map(textOf).filter(Boolean)).toEqual(['Still running', 'Resumed']);
    expect(bus.frames.every((frame) => stateOf(frame) !== 'TASK_STATE_INPUT_REQUIRED')).toBe(true);
    expect(executor.state.pipelines.stateOf('task-1', 0)?.events.map((event) => event.eventType)).toEqual([
      'permission_requested',
    ]);
  });

  it('cancel of a parked task publishes CANCELED and forgets what it waited for', async () => {
    await executor.execute(contextFor('ask'), new RecordingEventBus());
    const bus = new RecordingEventBus();
    await executor.cancelTask('task-1', bus);
    expect(bus.frames.map(stateOf)).toEqual(['TASK_STATE_CANCELED']);
    expect(executor.state.inputs.viewOf('task-1')).toBeUndefined();
  });

  it('cancel during a sideband wait ends the turn with CANCELED', async () => {
    const bus = new RecordingEventBus();
    const running = executor.execute(contextFor('sideband'), bus);
    await framesReached(bus, 5);
    await executor.cancelTask('task-1', bus);
    await running;
    expect(stateOf(bus.frames[bus.frames.length - 1])).toBe('TASK_STATE_CANCELED');
    expect(bus.frames.map(textOf)).not.toContain('Resumed');
  });
});
