import { EventType, type BaseEvent } from '@ag-ui/core';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import type { A2aFrame } from '../wire/a2a-wire';
import { A2aEventMapper, type MapperSeed } from './a2a-event-mapper';
import { runFinished, runStarted } from './run-events';

// Pipeline recovery, docs/behaviour/events.md#pipeline-recovery.
const NOW = 1_700_000_000_000;
const RUN = { threadId: 'thread-1', runId: 'run-2' };

type Envelope = Record<string, unknown>;
const pipe = (envelope: Envelope): A2aFrame => ({
  statusUpdate: {
    taskId: 'task-1',
    status: { state: 'TASK_STATE_WORKING' },
    metadata: { iac_code: { pipeline: envelope } },
  },
});

const at = (event: Omit<BaseEvent, 'timestamp'>): BaseEvent => ({ ...event, timestamp: NOW }) as BaseEvent;
const activity = (pipelineRunId: string, snapshot: Envelope) =>
  at({
    type: EventType.ACTIVITY_SNAPSHOT,
    messageId: `pipeline:${pipelineRunId}`,
    activityType: 'iac-code.pipeline.v1',
    content: { schemaVersion: 1, pipelineRunId, snapshot },
    replace: true,
  });
const stepStarted = (stepName: string) => at({ type: EventType.STEP_STARTED, stepName });
const stepFinished = (stepName: string) => at({ type: EventType.STEP_FINISHED, stepName });

const completeB = {
  eventId: 'candidate-b-complete',
  eventType: 'candidate_step_completed',
  sequence: 8,
  candidateStep: { id: 'candidate-b' },
};
const snapshot22 = {
  schemaVersion: '1.0',
  pipelineRunId: 'pipeline-1',
  lastSequence: 8,
  display: { messages: [{ text: 'candidate B continued' }] },
};
const snapshot23 = { schemaVersion: '1.0', pipelineRunId: 'pipeline-1', lastSequence: 4 };
const candidateMessage = 'pipeline-message:pipeline-1:candidate:candidate-b';
const snapshot24 = { pipelineRunId: 'pipeline-1', lastSequence: 1 };
const thinkingId = 'reasoning-pipeline-message:pipeline-1:pipeline';
const missedStep = {
  eventId: 'missed-step-9',
  eventType: 'candidate_step_completed',
  sequence: 9,
  candidateStep: { id: 'candidate-a' },
};

interface RecoveryCase {
  name: string;
  seed?: MapperSeed;
  reopen?: boolean;
  /** Live frames mapped before the recovery (their events are checked in `live`). */
  before?: A2aFrame[];
  live?: BaseEvent[];
  state: unknown;
  expected: BaseEvent[];
  closing?: BaseEvent[];
  cursor: number;
  pipelineRunId: string;
  durable?: string[];
}

const cases: RecoveryCase[] = [
  {
    name: 'a duplicate event: one replacing snapshot, one STEP_FINISHED "candidate-b", no CUSTOM, cursor 8',
    seed: { pipelineOpenSteps: ['step:candidate-b'] },
    state: { snapshot: snapshot22, events: [completeB, completeB] },
    // The step is durable but was not reopened in this run: a zero-length pair keeps the stream balanced.
    expected: [activity('pipeline-1', snapshot22), stepStarted('candidate-b'), stepFinished('candidate-b')],
    cursor: 8,
    pipelineRunId: 'pipeline-1',
    durable: [],
  },
  {
    name: 'after reopenDurableSteps the recovered completion finishes the reopened step',
    seed: { pipelineOpenSteps: ['step:candidate-b'] },
    reopen: true,
    state: { snapshot: snapshot22, events: [completeB, completeB] },
    expected: [activity('pipeline-1', snapshot22), stepFinished('candidate-b')],
    cursor: 8,
    pipelineRunId: 'pipeline-1',
    durable: [],
  },
  {
    name: 'recovered text and tool map to standard events with the result, no CUSTOM',
    state: {
      snapshot: snapshot23,
      events: [
        {
          eventId: 'candidate-text',
          eventType: 'text_delta',
          sequence: 2,
          scope: 'candidate',
          candidate: { runId: 'candidate-b' },
          data: { text: 'candidate B completed' },
        },
        {
          eventId: 'tool-started',
          eventType: 'tool_started',
          sequence: 3,
          data: { toolUseId: 'tool-1', toolName: 'bash', input: { cmd: 'pwd' } },
        },
        {
          eventId: 'tool-result',
          eventType: 'tool_result',
          sequence: 4,
          data: { toolUseId: 'tool-1', toolName: 'bash', result: 'ok', isError: false },
        },
      ],
    },
    expected: [
      activity('pipeline-1', snapshot23),
      at({ type: EventType.TEXT_MESSAGE_START, messageId: candidateMessage, role: 'assistant' }),
      at({
        type: EventType.TEXT_MESSAGE_CONTENT,
        messageId: candidateMessage,
        delta: 'candidate B completed',
      }),
      at({
        type: EventType.TOOL_CALL_START,
        toolCallId: 'tool-1',
        toolCallName: 'bash',
        parentMessageId: candidateMessage,
      }),
      at({ type: EventType.TOOL_CALL_ARGS, toolCallId: 'tool-1', delta: '{"cmd":"pwd"}' }),
      at({ type: EventType.TOOL_CALL_END, toolCallId: 'tool-1' }),
      at({
        type: EventType.TOOL_CALL_RESULT,
        messageId: 'tool-result-tool-1',
        toolCallId: 'tool-1',
        content: 'ok',
        role: 'tool',
      }),
    ],
    closing: [at({ type: EventType.TEXT_MESSAGE_END, messageId: candidateMessage })],
    cursor: 4,
    pipelineRunId: 'pipeline-1',
  },
  {
    name: 'recovered thinking maps to reasoning content, no thinking CUSTOM',
    state: {
      snapshot: snapshot24,
      events: [
        {
          eventId: 'thinking-1',
          eventType: 'thinking_delta',
          sequence: 1,
          data: { type: 'raw_thinking', text: 'recovered reasoning' },
        },
      ],
    },
    expected: [
      activity('pipeline-1', snapshot24),
      at({ type: EventType.REASONING_START, messageId: thinkingId }),
      at({ type: EventType.REASONING_MESSAGE_START, messageId: thinkingId, role: 'reasoning' }),
      at({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: thinkingId, delta: 'recovered reasoning' }),
    ],
    closing: [
      at({ type: EventType.REASONING_MESSAGE_END, messageId: thinkingId }),
      at({ type: EventType.REASONING_END, messageId: thinkingId }),
    ],
    cursor: 1,
    pipelineRunId: 'pipeline-1',
  },
  {
    name: 'an unseen id below the live cursor is accepted; an id-less one is not; cursor 12',
    seed: { pipelineOpenSteps: ['step:candidate-a'] },
    reopen: true,
    before: [pipe({ eventId: 'live-10', eventType: 'pipeline_progress', sequence: 10 })],
    live: [],
    state: {
      snapshot: { pipelineRunId: 'pipeline-1', lastSequence: 12 },
      events: [
        missedStep,
        { eventType: 'pipeline_warning', sequence: 9 },
        { eventId: 'live-10', eventType: 'pipeline_warning', sequence: 10 },
        { eventType: 'pipeline_resumed', sequence: 11 },
      ],
    },
    expected: [
      activity('pipeline-1', { pipelineRunId: 'pipeline-1', lastSequence: 12 }),
      stepFinished('candidate-a'),
      at({
        type: EventType.CUSTOM,
        name: 'iac-code.pipeline.v1',
        value: { eventType: 'pipeline_resumed', sequence: 11 },
      }),
    ],
    cursor: 12,
    pipelineRunId: 'pipeline-1',
    durable: [],
  },
  {
    name: 'events already seen live are skipped; the snapshot keeps the current pipelineRunId when it names none',
    before: [pipe({ eventId: 'e1', eventType: 'pipeline_started', sequence: 1 })],
    live: [
      at({
        type: EventType.CUSTOM,
        name: 'iac-code.pipeline.v1',
        value: { eventId: 'e1', eventType: 'pipeline_started', sequence: 1 },
      }),
    ],
    state: {
      snapshot: { lastSequence: 3.0 },
      events: [{ eventId: 'e1', eventType: 'pipeline_started', sequence: 1 }, 'junk'],
    },
    expected: [activity('pipeline-thread-1', { lastSequence: 3 })],
    cursor: 3,
    pipelineRunId: 'pipeline-thread-1',
  },
  {
    name: 'no events array: only the snapshot, and the cursor still rises to lastSequence',
    seed: { pipelineRunId: 'pipeline-old', pipelineSequence: 2 },
    state: { snapshot: { pipelineRunId: 'pipeline-new', lastSequence: 5 }, events: null },
    expected: [activity('pipeline-new', { pipelineRunId: 'pipeline-new', lastSequence: 5 })],
    cursor: 5,
    pipelineRunId: 'pipeline-new',
  },
  {
    name: 'no snapshot object (a 404 body, junk): nothing, nothing changes',
    seed: { pipelineRunId: 'pipeline-old', pipelineSequence: 2 },
    state: { snapshot: 'gone', events: [completeB] },
    expected: [],
    cursor: 2,
    pipelineRunId: 'pipeline-old',
  },
];

describe('Pipeline recovery', () => {
  it.each(cases)(
    '$name',
    async ({
      seed,
      reopen,
      before = [],
      live = [],
      state,
      expected,
      closing = [],
      cursor,
      pipelineRunId,
      durable,
    }) => {
      const mapper = new A2aEventMapper(RUN, () => 'id', seed);
      const reopened = reopen ? mapper.reopenDurableSteps(NOW) : [];
      const liveEvents = before.flatMap((frame) => mapper.map(frame, NOW));
      expect(liveEvents).toEqual(live);
      const events = mapper.mapPipelineRecovery(state, NOW);
      expect(events).toEqual(expected);
      expect(mapper.pipelineCursor).toBe(cursor);
      expect(mapper.pipelineRunId).toBe(pipelineRunId);
      if (durable) expect(mapper.durableOpenSteps).toEqual(durable);
      const closed = mapper.closeAll(NOW);
      expect(closed).toEqual(closing);
      await expectConformantEvents([
        runStarted(RUN, undefined, NOW),
        ...reopened,
        ...liveEvents,
        ...events,
        ...closed,
        runFinished(RUN, mapper.usage(), NOW),
      ]);
    },
  );

  it('envelopes accepted by recovery are dropped when the live stream repeats them', () => {
    const mapper = new A2aEventMapper(RUN, () => 'id');
    const started = { eventId: 'p1', eventType: 'pipeline_started', sequence: 3 };
    expect(
      mapper.mapPipelineRecovery({ snapshot: { lastSequence: 1 }, events: [started] }, NOW),
    ).toHaveLength(2);
    expect(mapper.map(pipe(started), NOW)).toEqual([]);
    expect(mapper.map(pipe({ eventType: 'pipeline_warning', sequence: 3 }), NOW)).toEqual([]);
    expect(mapper.seenPipelineEventIds).toBe(1);
  });

  it('the recovery snapshot id names later Pipeline text', () => {
    const mapper = new A2aEventMapper(RUN, () => 'id');
    mapper.mapPipelineRecovery({ snapshot: { pipelineRunId: 'pipeline-9' } }, NOW);
    const events = mapper.map(pipe({ eventId: 't', eventType: 'text_delta', data: { text: 'x' } }), NOW);
    expect(events[0]).toMatchObject({ messageId: 'pipeline-message:pipeline-9:pipeline' });
  });
});
