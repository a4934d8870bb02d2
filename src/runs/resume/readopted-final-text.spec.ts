import type { BaseEvent } from '@ag-ui/core';
import { endOfTurnFrames, statusFrame } from '../../demo-kernel/kernel-frames';
import { expectConformantEvents } from '../../../test/support/agui-conformance';
import {
  allowOnce as allow,
  kernelIds,
  lastEvent,
  parkedAt,
  resumeEngineRun as resumeRun,
  shellPermission as permission,
} from '../../../test/support/engine-run';
import { ThreadRegistry } from '../../threads/thread-registry';
import type { A2aFrame } from '../../wire/a2a-wire';

type Ids = ReturnType<typeof kernelIds>;
const ANSWER = 'The whole answer.';

const textOf = (events: readonly BaseEvent[]) =>
  events
    .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
    .map((event) => (event as BaseEvent & { delta: string }).delta)
    .join('');

/** The task as the kernel keeps it: `state`, its last status message, and the metadata its updates merged. */
function taskSnapshot(ids: Ids, state: string, options: { text?: string; final?: boolean } = {}): A2aFrame {
  return {
    task: {
      id: ids.taskId,
      contextId: ids.contextId,
      status: {
        state,
        ...(options.text
          ? { message: { messageId: 'm-final', role: 'ROLE_AGENT', parts: [{ text: options.text }] } }
          : {}),
      },
      metadata: {
        iac_code: {
          iacCodeSessionId: ids.sessionId,
          ...(options.final ? { assistantFinal: { complete: true } } : {}),
        },
      },
    },
  };
}

/**
 * A client that retries a turn the dead replica was streaming gets the turn's final text whichever path its
 * retry takes, as a normal run's end gives it: all of it once, when the kernel's snapshot holds it
 * (docs/behaviour/state.md#re-adoption).
 */
describe('the final text of a turn whose answer the kernel already applied', () => {
  /** Run 2's answer was accepted and recorded; its replica died before the text and the execution's end. */
  async function orphanedTurn(snapshot: (ids: Ids) => A2aFrame) {
    const parked = await parkedAt(permission);
    const second = await resumeRun(parked, allow(parked.interruptId));
    const answer = await second.gateway.stream(1);
    answer.push(statusFrame(second.ids, 'TASK_STATE_WORKING'));
    await second.sink.written(2);
    const orphaned = await second.stored();
    // What run 2 did after this is lost with its replica: the thread is put back as it was here.
    answer.push(...endOfTurnFrames(second.ids, ANSWER));
    answer.end();
    await second.delivered;
    await parked.store.save(orphaned);
    const registry = new ThreadRegistry(parked.store, null, null, { threadCacheSize: 8 });
    return resumeRun(parked, allow(parked.interruptId), snapshot(parked.ids), { runId: 'run-3', registry });
  }

  it.each([
    {
      name: 'while the task still works, its whole answer already sent: the text from GetTask, once',
      atGetTask: { text: ANSWER, final: true },
    },
    {
      name: 'the text frame sent between GetTask and the subscription: the text from the task the subscription opens with',
      atGetTask: {},
    },
  ])('re-adopted $name', async ({ atGetTask }) => {
    const { gateway, sink, delivered, ids } = await orphanedTurn((ids) =>
      taskSnapshot(ids, 'TASK_STATE_WORKING', atGetTask),
    );
    const subscribed = await gateway.stream(2);
    subscribed.push(taskSnapshot(ids, 'TASK_STATE_WORKING', { text: ANSWER, final: true }));
    subscribed.push(statusFrame(ids, 'TASK_STATE_INPUT_REQUIRED'));
    subscribed.end();
    await delivered;
    await expectConformantEvents(sink.events);
    expect(textOf(sink.events)).toBe(ANSWER);
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
  });

  it('re-adopted while a delta is the last status message: no fragment is taken for the answer', async () => {
    const { gateway, sink, delivered, ids } = await orphanedTurn((ids) =>
      taskSnapshot(ids, 'TASK_STATE_WORKING', { text: 'The wh' }),
    );
    const subscribed = await gateway.stream(2);
    subscribed.push(taskSnapshot(ids, 'TASK_STATE_WORKING', { text: 'The wh' }));
    subscribed.end();
    await delivered;
    expect(textOf(sink.events)).toBe('');
  });

  it.each([
    { name: 'its status text', status: { text: ANSWER, final: true }, agentHistory: [] },
    {
      // The kernel's own shape: the deltas and the whole-answer repeat in history, the status without text.
      name: 'its history (the deltas, then the repeat)',
      status: {},
      agentHistory: ['The whole ', 'answer.', ANSWER],
    },
  ])(
    'an ended turn whose answer the dead replica had not recorded (taken by the kernel): the text once, from $name',
    async ({ status, agentHistory }) => {
      const parked = await parkedAt(permission);
      const history = [
        {
          role: 'ROLE_USER',
          parts: [{ data: { kind: 'permission', inputId: parked.interruptId, decision: 'allow_once' } }],
        },
        ...agentHistory.map((text) => ({ messageId: 'm-final', role: 'ROLE_AGENT', parts: [{ text }] })),
      ];
      const ended = taskSnapshot(parked.ids, 'TASK_STATE_INPUT_REQUIRED', status);
      const { sink, delivered, calls } = await resumeRun(parked, allow(parked.interruptId), {
        task: { ...(ended.task as Record<string, unknown>), history },
      });
      await delivered;
      await expectConformantEvents(sink.events);
      expect(calls()).toEqual(['ensure-restored', 'GetTask']);
      expect(textOf(sink.events)).toBe(ANSWER);
      expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
    },
  );
});
