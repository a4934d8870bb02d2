import {
  Message,
  Role,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatusUpdateEvent,
  type Task,
} from '@a2a-js/sdk';
import { AgentEvent, ResultManager, type ServerCallContext } from '@a2a-js/sdk/server';
import { InMemoryTaskStore } from '@a2a-js/sdk/server';
import {
  artifactFrame,
  endOfTurnFrames,
  kernelSessionId,
  statusFrame,
  textDeltaFrame,
} from './kernel-frames';
import type { KernelFrame } from './kernel-script';
import { KernelTaskHistory, MAX_HISTORY_BYTES, withKernelHistory } from './kernel-task-history';
import { messageBytes } from './recent-task-store';

const context = {} as ServerCallContext;
const ids = { taskId: 'task-1', contextId: 'ctx-1', sessionId: kernelSessionId('ctx-1') };

const userMessage = (messageId: string, text: string) =>
  Message.fromJSON({
    messageId,
    role: 'ROLE_USER',
    taskId: ids.taskId,
    contextId: ids.contextId,
    parts: [{ text }],
  });

const textOf = (message: Message | undefined) =>
  (message?.parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');

/** The task's history as `[role, text]`, the user's as `user`, the agent's as `agent`. */
const historyOf = (task: Task | undefined) =>
  (task?.history ?? []).map((message) => [
    message.role === Role.ROLE_USER ? 'user' : 'agent',
    textOf(message),
  ]);

/** The SDK's server bookkeeping (ResultManager) over the store, fed the frames the scripted kernel publishes. */
function kernelTask() {
  const store = new KernelTaskHistory(new InMemoryTaskStore());
  const publish = async (frames: readonly KernelFrame[], userText?: string) => {
    const results = new ResultManager(store, context);
    const saved = await store.load(ids.taskId, context);
    if (userText !== undefined) {
      // The request handler's continuation: the user's message appended to the stored task, then saved.
      const message = userMessage(`u-${userText}`, userText);
      results.setContext(message);
      const task: Task = saved
        ? { ...saved, history: [...saved.history, message] }
        : {
            id: ids.taskId,
            contextId: ids.contextId,
            status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
            artifacts: [],
            history: [message],
            metadata: {},
          };
      if (saved) await store.save(task, context);
      await results.processEvent(AgentEvent.task(task));
    }
    for (const frame of frames) {
      await results.processEvent(
        'statusUpdate' in frame
          ? AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON(frame.statusUpdate))
          : AgentEvent.artifactUpdate(TaskArtifactUpdateEvent.fromJSON(frame.artifactUpdate)),
      );
    }
    return store.load(ids.taskId, context);
  };
  return { publish };
}

describe("KernelTaskHistory: a task's history as the kernel's SDK keeps it", () => {
  it('an ended turn holds its deltas and the whole-answer repeat after the user message; the status no text', async () => {
    const { publish } = kernelTask();
    await publish(
      [
        statusFrame(ids, 'TASK_STATE_WORKING'),
        textDeltaFrame(ids, 'I will check. '),
        statusFrame(ids, 'TASK_STATE_INPUT_REQUIRED'),
      ],
      'permission',
    );
    const ended = await publish(
      [
        statusFrame(ids, 'TASK_STATE_WORKING'),
        textDeltaFrame(ids, 'The command ran. '),
        textDeltaFrame(ids, 'Done.'),
        ...endOfTurnFrames(ids, 'The command ran. Done.'),
      ],
      'allow',
    );
    expect(historyOf(ended)).toEqual([
      ['user', 'permission'],
      ['agent', 'I will check. '],
      ['user', 'allow'],
      ['agent', 'The command ran. '],
      ['agent', 'Done.'],
      ['agent', 'The command ran. Done.'],
    ]);
    expect(ended?.status?.message).toBeUndefined();
  });

  it('stops moving replaced messages once the history holds MAX_HISTORY_BYTES, so a flood of deltas stays small', async () => {
    const { publish } = kernelTask();
    const size = 8 * 1024;
    const deltas = Array.from({ length: Math.ceil((2 * MAX_HISTORY_BYTES) / size) }, (_, index) =>
      String(index).padEnd(size, '.'),
    );
    const flooded = await publish(
      [statusFrame(ids, 'TASK_STATE_WORKING'), ...deltas.map((delta) => textDeltaFrame(ids, delta))],
      'flood',
    );
    const kept = (flooded?.history ?? []).reduce((sum, message) => sum + messageBytes(message), 0);
    expect(kept).toBeLessThanOrEqual(MAX_HISTORY_BYTES);
    expect(kept).toBeGreaterThan(MAX_HISTORY_BYTES - size);
    expect(textOf(flooded?.status?.message)).toBe(deltas.at(-1));
  });

  it('mid-turn the last delta is the status message, the ones before it are in history, none twice (an artifact moves nothing)', async () => {
    const { publish } = kernelTask();
    const working = await publish(
      [
        textDeltaFrame(ids, 'one '),
        artifactFrame(ids, { artifactId: 'a', name: 'plan', text: 'x', mediaType: 'text/plain' }),
        textDeltaFrame(ids, 'two '),
        textDeltaFrame(ids, 'three'),
      ],
      'hello',
    );
    expect(historyOf(working)).toEqual([
      ['user', 'hello'],
      ['agent', 'one '],
      ['agent', 'two '],
    ]);
    expect(textOf(working?.status?.message)).toBe('three');
  });

  it("a continuation's own saves (its user message, the task it opens with) move nothing", async () => {
    const { publish } = kernelTask();
    await publish([textDeltaFrame(ids, 'asked'), statusFrame(ids, 'TASK_STATE_INPUT_REQUIRED')], 'first');
    const again = await publish([], 'second');
    expect(historyOf(again)).toEqual([
      ['user', 'first'],
      ['agent', 'asked'],
      ['user', 'second'],
    ]);
  });

  it('a task event that brings a history of its own (not the stored one continued) is saved as it comes', () => {
    const saved = { id: ids.taskId, history: [userMessage('a', 'a'), userMessage('b', 'b')] } as Task;
    const next = { id: ids.taskId, history: [userMessage('c', 'c')] } as Task;
    expect(withKernelHistory(saved, next)).toBe(next);
  });
});
