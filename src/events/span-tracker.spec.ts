import { EventType, type BaseEvent } from '@ag-ui/core';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import { runFinished, runStarted } from './run-events';
import { SpanTracker } from './span-tracker';

const NOW = 42;
const RUN = { threadId: 't', runId: 'r' };
const summary = (events: readonly BaseEvent[]) =>
  events.map((event) => `${event.type}:${String(event.messageId ?? event.toolCallId ?? event.stepName)}`);

describe('SpanTracker', () => {
  it('closes everything in the docs/behaviour/events.md#run-lifecycle order, steps sorted by key, and only once', async () => {
    const spans = new SpanTracker();
    const opened = [
      ...spans.openStep('step:evaluate_candidates', 'evaluate_candidates', NOW),
      ...spans.openStep(
        'candidate:candidate-0:template_generating',
        'candidate:candidate-0:template_generating',
        NOW,
      ),
      ...spans.openText('m2', NOW),
      ...spans.openText('m1', NOW, true),
      ...spans.openTool('tool-b', 'b', NOW),
      ...spans.openTool('tool-a', 'a', NOW),
      ...spans.openReasoning('reasoning-z', NOW),
      ...spans.openReasoning('reasoning-y', NOW),
    ];
    const closed = spans.closeAll(NOW);
    expect(summary(closed)).toEqual([
      'REASONING_MESSAGE_END:reasoning-y',
      'REASONING_END:reasoning-y',
      'REASONING_MESSAGE_END:reasoning-z',
      'REASONING_END:reasoning-z',
      'TOOL_CALL_END:tool-a',
      'TOOL_CALL_END:tool-b',
      'TEXT_MESSAGE_END:m1',
      'TEXT_MESSAGE_END:m2',
      'STEP_FINISHED:candidate:candidate-0:template_generating',
      'STEP_FINISHED:evaluate_candidates',
    ]);
    expect(spans.closeAll(NOW)).toEqual([]);
    expect(spans.currentMessageId).toBeUndefined();
    await expectConformantEvents([
      runStarted(RUN, undefined, NOW),
      ...opened,
      ...closed,
      runFinished(RUN, undefined, NOW),
    ]);
  });

  it.each([
    {
      name: 'a second openText of the same id',
      act: (s: SpanTracker) => [...s.openText('m', NOW), ...s.openText('m', NOW)],
      count: 1,
    },
    {
      name: 'a second openTool of the same id',
      act: (s: SpanTracker) => [...s.openTool('c', 'n', NOW), ...s.openTool('c', 'n', NOW)],
      count: 1,
    },
    {
      name: 'a second openReasoning of the same id',
      act: (s: SpanTracker) => [...s.openReasoning('r', NOW), ...s.openReasoning('r', NOW)],
      count: 2,
    },
    {
      name: 'a second openStep of the same key',
      act: (s: SpanTracker) => [...s.openStep('k', 'n', NOW), ...s.openStep('k', 'n', NOW)],
      count: 1,
    },
    {
      name: 'closing what is not open',
      act: (s: SpanTracker) => [
        ...s.closeText('m', NOW),
        ...s.closeTool('c', NOW),
        ...s.closeStep('k', NOW),
        ...s.closeReasoning(NOW),
      ],
      count: 0,
    },
  ])('emits nothing for $name', ({ act, count }) => {
    expect(act(new SpanTracker())).toHaveLength(count);
  });

  it('closes the current message when another opens, unless parallel', () => {
    const spans = new SpanTracker();
    spans.openText('a', NOW);
    expect(summary(spans.openText('b', NOW))).toEqual(['TEXT_MESSAGE_END:a', 'TEXT_MESSAGE_START:b']);
    expect(summary(spans.openText('c', NOW, true))).toEqual(['TEXT_MESSAGE_START:c']);
    expect(spans.currentMessageId).toBe('c');
    spans.closeText('c', NOW);
    expect(spans.currentMessageId).toBe('b');
  });

  it('hangs tool calls under the current message', () => {
    const spans = new SpanTracker();
    expect(spans.openTool('c0', 'n', NOW)[0]).not.toHaveProperty('parentMessageId');
    spans.openText('m', NOW);
    expect(spans.openTool('c1', 'n', NOW)[0]).toEqual({
      type: EventType.TOOL_CALL_START,
      toolCallId: 'c1',
      toolCallName: 'n',
      parentMessageId: 'm',
      timestamp: NOW,
    });
  });
});
