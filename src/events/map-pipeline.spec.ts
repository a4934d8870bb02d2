import { EventType, type BaseEvent } from '@ag-ui/core';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import { expectEncoderBytes } from '../../test/support/sse-frame-bytes';
import type { A2aFrame } from '../wire/a2a-wire';
import { A2aEventMapper, type MapOptions, type MapperSeed } from './a2a-event-mapper';
import { runFinished, runStarted } from './run-events';
import { unwrapFrame } from '../wire/unwrap-frame';

// Live Pipeline projection, docs/behaviour/events.md#pipeline-envelopes.
const NOW = 1_700_000_000_000;
const RUN = { threadId: 'thread-1', runId: 'run-1' };
const PIPE = 'pipeline-message:pipeline-thread-1';

type Envelope = Record<string, unknown>;
const frameOf = (iacCode: Record<string, unknown>): A2aFrame => ({
  statusUpdate: {
    taskId: 'task-1',
    status: { state: 'TASK_STATE_WORKING' },
    metadata: { iac_code: iacCode },
  },
});
const pipe = (envelope: Envelope) => frameOf({ pipeline: envelope });
const batch = (...events: Envelope[]) => frameOf({ pipelineBatch: { events } });
const numbered = (envelopes: Envelope[]) =>
  envelopes.map((envelope, i) => pipe({ eventId: `event-${i + 1}`, sequence: i + 1, ...envelope }));

const at = (event: Omit<BaseEvent, 'timestamp'>): BaseEvent => ({ ...event, timestamp: NOW }) as BaseEvent;
const stepStarted = (stepName: string) => at({ type: EventType.STEP_STARTED, stepName });
const stepFinished = (stepName: string) => at({ type: EventType.STEP_FINISHED, stepName });
const textStart = (messageId: string) =>
  at({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' });
const text = (delta: string, messageId: string) =>
  at({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta });
const textEnd = (messageId: string) => at({ type: EventType.TEXT_MESSAGE_END, messageId });
const reasoningOpen = (messageId: string) => [
  at({ type: EventType.REASONING_START, messageId }),
  at({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' }),
];
const reasoning = (delta: string, messageId: string) =>
  at({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta });
const reasoningClose = (messageId: string) => [
  at({ type: EventType.REASONING_MESSAGE_END, messageId }),
  at({ type: EventType.REASONING_END, messageId }),
];
const toolCall = (toolCallId: string, toolCallName: string, args: string, parentMessageId?: string) => [
  at({
    type: EventType.TOOL_CALL_START,
    toolCallId,
    toolCallName,
    ...(parentMessageId && { parentMessageId }),
  }),
  at({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: args }),
  at({ type: EventType.TOOL_CALL_END, toolCallId }),
];
const toolResult = (toolCallId: string, content: string) =>
  at({
    type: EventType.TOOL_CALL_RESULT,
    messageId: `tool-result-${toolCallId}`,
    toolCallId,
    content,
    role: 'tool',
  });
const custom = (value: Envelope) => at({ type: EventType.CUSTOM, name: 'iac-code.pipeline.v1', value });

interface PipelineCase {
  name: string;
  seed?: MapperSeed;
  /** Call reopenDurableSteps first, as the run path does after RUN_STARTED (docs/behaviour/events.md#run-lifecycle step 2). */
  reopen?: BaseEvent[];
  frames: A2aFrame[];
  options?: MapOptions;
  expected: BaseEvent[];
  closing?: BaseEvent[];
  durable?: string[];
  cursor?: number;
}

const customTypes = [
  'pipeline_started',
  'pipeline_completed',
  'candidate_started',
  'candidate_detail_shown',
  'stack_progress',
  'pipeline_warning',
  'candidate_step_failed',
];
const customEnvelopes = customTypes.map((eventType, i) => ({
  eventId: `event-${i + 1}`,
  eventType,
  sequence: i + 1,
  data: { summary: eventType },
}));

const candidateText = (candidate: string, sequence: number, delta: string) => ({
  eventId: `text-${sequence}`,
  eventType: 'text_delta',
  sequence,
  scope: 'candidate_step',
  candidate: { runId: candidate },
  candidateStep: { id: 'template_generating' },
  data: { text: delta },
});
const msgA = `${PIPE}:candidate_step:candidate-a:template_generating`;
const msgB = `${PIPE}:candidate_step:candidate-b:template_generating`;
const candidateZeroStep = 'candidate:candidate-0:template_generating';
const candidateZeroComplete = {
  eventId: 'candidate-complete',
  eventType: 'candidate_step_completed',
  candidate: { runId: 'candidate-0' },
  candidateStep: { id: 'template_generating' },
};

const cases: PipelineCase[] = [
  {
    name: 'a usage envelope is only recorded: no event, no CUSTOM',
    frames: [
      pipe({
        eventId: 'usage-1',
        eventType: 'usage',
        data: {
          provider: 'dashscope',
          model: 'qwen-test',
          inputTokens: 12,
          outputTokens: 3,
          totalTokens: 15,
        },
      }),
    ],
    expected: [],
  },
  {
    name: 'standard and internal types map to tool and step events, never to CUSTOM',
    frames: numbered([
      { eventType: 'message_started', data: { messageId: 'message-1' } },
      { eventType: 'context_usage', data: { currentTokens: 10 } },
      { eventType: 'tool_started', data: { toolUseId: 'tool-1', toolName: 'bash', input: { cmd: 'pwd' } } },
      { eventType: 'tool_result', data: { toolUseId: 'tool-1', toolName: 'bash', result: 'ok' } },
      { eventType: 'step_started', step: { id: 'prepare' } },
      { eventType: 'step_completed', step: { id: 'prepare' } },
      { eventType: 'permission_requested', data: { toolUseId: 'tool-2' } },
      { eventType: 'backup_committed', data: { committedSequence: 1 } },
    ]),
    expected: [
      ...toolCall('tool-1', 'bash', '{"cmd":"pwd"}'),
      toolResult('tool-1', 'ok'),
      stepStarted('prepare'),
      stepFinished('prepare'),
    ],
    durable: [],
    cursor: 8,
  },
  {
    name: 'allow-listed types become CUSTOM iac-code.pipeline.v1 in order, envelope unchanged',
    frames: customEnvelopes.map(pipe),
    expected: customEnvelopes.map(custom),
  },
  {
    name: 'nested steps: started a, b; finished b, a; no ACTIVITY_SNAPSHOT in live mapping',
    frames: [
      pipe({ eventId: 'step-a-start', eventType: 'step_started', step: { id: 'step-a' } }),
      pipe({ eventId: 'step-b-start', eventType: 'step_started', step: { id: 'step-b' } }),
      pipe({ eventId: 'step-b-end', eventType: 'step_completed', step: { id: 'step-b' } }),
      pipe({ eventId: 'step-a-end', eventType: 'step_completed', step: { id: 'step-a' } }),
    ],
    expected: [stepStarted('step-a'), stepStarted('step-b'), stepFinished('step-b'), stepFinished('step-a')],
    durable: [],
  },
  {
    name: 'closeAll finishes candidate:… before step:… and keeps the durable set',
    frames: [
      batch(
        { eventId: 'parent-start', eventType: 'step_started', step: { id: 'evaluate_candidates' } },
        {
          eventId: 'candidate-start',
          eventType: 'candidate_step_started',
          candidate: { runId: 'candidate-0' },
          candidateStep: { id: 'template_generating' },
        },
      ),
    ],
    expected: [stepStarted('evaluate_candidates'), stepStarted(candidateZeroStep)],
    closing: [stepFinished(candidateZeroStep), stepFinished('evaluate_candidates')],
    durable: [candidateZeroStep, 'step:evaluate_candidates'],
  },
  {
    name: 'a resumed run reopens durable steps, finishes one live, closeAll the other',
    seed: { pipelineOpenSteps: ['step:evaluate_candidates', candidateZeroStep] },
    reopen: [stepStarted(candidateZeroStep), stepStarted('evaluate_candidates')],
    frames: [pipe(candidateZeroComplete)],
    expected: [stepFinished(candidateZeroStep)],
    closing: [stepFinished('evaluate_candidates')],
    durable: ['step:evaluate_candidates'],
  },
  {
    name: 'parallel candidates running the same step get distinct step names',
    frames: ['candidate-0', 'candidate-1'].map((candidate) =>
      pipe({
        eventId: `${candidate}-start`,
        eventType: 'candidate_step_started',
        candidate: { runId: candidate },
        candidateStep: { id: 'template_generating' },
      }),
    ),
    expected: [stepStarted(candidateZeroStep), stepStarted('candidate:candidate-1:template_generating')],
    closing: [stepFinished(candidateZeroStep), stepFinished('candidate:candidate-1:template_generating')],
  },
  {
    name: 'interleaved candidate text keeps one message span per candidate, no CUSTOM',
    frames: ['candidate-a', 'candidate-b', 'candidate-a', 'candidate-b'].map((candidate, i) =>
      pipe({
        eventId: `text-${i + 1}`,
        eventType: 'text_delta',
        sequence: i + 1,
        scope: 'candidate_step',
        candidateStep: { runId: candidate },
        data: { text: `delta-${i + 1}` },
      }),
    ),
    expected: [
      textStart(`${PIPE}:candidate_step:candidate-a`),
      text('delta-1', `${PIPE}:candidate_step:candidate-a`),
      textStart(`${PIPE}:candidate_step:candidate-b`),
      text('delta-2', `${PIPE}:candidate_step:candidate-b`),
      text('delta-3', `${PIPE}:candidate_step:candidate-a`),
      text('delta-4', `${PIPE}:candidate_step:candidate-b`),
    ],
    closing: [textEnd(`${PIPE}:candidate_step:candidate-a`), textEnd(`${PIPE}:candidate_step:candidate-b`)],
  },
  {
    name: 'candidate text ids put the candidate run identity before the shared step id',
    frames: [pipe(candidateText('candidate-a', 1, 'A')), pipe(candidateText('candidate-b', 2, 'B'))],
    expected: [textStart(msgA), text('A', msgA), textStart(msgB), text('B', msgB)],
    closing: [textEnd(msgA), textEnd(msgB)],
  },
  {
    name: 'thinking per candidate → separate reasoning ids, no CUSTOM',
    frames: ['candidate-a', 'candidate-b'].map((candidate, i) =>
      pipe({
        ...candidateText(candidate, i + 1, ''),
        eventId: `thinking-${i + 1}`,
        eventType: 'thinking_delta',
        data: { type: 'raw_thinking', text: candidate },
      }),
    ),
    expected: [
      ...reasoningOpen(`reasoning-${msgA}`),
      reasoning('candidate-a', `reasoning-${msgA}`),
      ...reasoningOpen(`reasoning-${msgB}`),
      reasoning('candidate-b', `reasoning-${msgB}`),
    ],
    closing: [...reasoningClose(`reasoning-${msgA}`), ...reasoningClose(`reasoning-${msgB}`)],
  },
  {
    name: 'input_received reopens a step closed for an interactive selection',
    frames: [
      pipe({ eventId: 'start', eventType: 'step_started', step: { id: 'confirm_and_select' } }),
      pipe({ eventId: 'pause', eventType: 'step_completed', step: { id: 'confirm_and_select' } }),
      pipe({ eventId: 'answer', eventType: 'input_received', step: { id: 'confirm_and_select' } }),
      pipe({ eventId: 'done', eventType: 'step_completed', step: { id: 'confirm_and_select' } }),
    ],
    expected: [
      stepStarted('confirm_and_select'),
      stepFinished('confirm_and_select'),
      stepStarted('confirm_and_select'),
      stepFinished('confirm_and_select'),
    ],
    durable: [],
  },
  {
    name: '500 unknown pipeline_progress envelopes map to nothing',
    frames: Array.from({ length: 500 }, (_, sequence) =>
      pipe({ eventId: `progress-${sequence}`, eventType: 'pipeline_progress', sequence }),
    ),
    expected: [],
    cursor: 499,
  },
  {
    name: 'a repeated batch eventId is mapped once (a zero-length pair for an unreopened durable step)',
    seed: { pipelineOpenSteps: ['step:candidate-a'] },
    frames: Array.from({ length: 2 }, () =>
      batch({
        eventId: 'step-1',
        eventType: 'candidate_step_completed',
        candidateStep: { id: 'candidate-a' },
      }),
    ),
    expected: [stepStarted('candidate-a'), stepFinished('candidate-a')],
    durable: [],
  },
  {
    name: 'the same, after reopening: one plain STEP_FINISHED',
    seed: { pipelineOpenSteps: ['step:candidate-a'] },
    reopen: [stepStarted('candidate-a')],
    frames: Array.from({ length: 2 }, () =>
      batch({
        eventId: 'step-1',
        eventType: 'candidate_step_completed',
        candidateStep: { id: 'candidate-a' },
      }),
    ),
    expected: [stepFinished('candidate-a')],
    durable: [],
  },
  {
    name: 'includePipeline: false maps no envelope and leaves cursor and durable set unchanged',
    seed: { pipelineOpenSteps: ['step:confirm_and_select'] },
    frames: [
      pipe({
        eventId: 'old-step-finished',
        eventType: 'step_completed',
        sequence: 7,
        step: { id: 'confirm_and_select' },
      }),
      batch({ eventId: 'old-start', eventType: 'pipeline_started', sequence: 6 }),
    ],
    options: { includePipeline: false },
    expected: [],
    durable: ['step:confirm_and_select'],
    cursor: 0,
  },
];

const dedupeCases: PipelineCase[] = [
  {
    name: 'a batch is mapped before the single envelope of the same frame, each deduped',
    frames: [
      frameOf({
        pipelineBatch: { events: [customEnvelopes[0], 'junk', customEnvelopes[1], customEnvelopes[0]] },
        pipeline: customEnvelopes[1],
      }),
    ],
    expected: [custom(customEnvelopes[0]), custom(customEnvelopes[1])],
    cursor: 2,
  },
  {
    name: 'id rule: a repeated eventId without a sequence is mapped once',
    frames: [
      pipe({ eventId: 'w', eventType: 'pipeline_warning' }),
      batch({ eventId: 'w', eventType: 'pipeline_warning' }, { eventId: 'w', eventType: 'pipeline_warning' }),
    ],
    expected: [custom({ eventId: 'w', eventType: 'pipeline_warning' })],
    cursor: 0,
  },
  {
    name: 'sequence rule: an envelope at or below the cursor is dropped, with or without an id',
    frames: [
      pipe({ eventId: 'a', eventType: 'pipeline_started', sequence: 5 }),
      pipe({ eventId: 'b', eventType: 'pipeline_resumed', sequence: 5 }),
      pipe({ eventType: 'pipeline_resumed', sequence: 3 }),
      pipe({ eventId: 'c', eventType: 'pipeline_warning', sequence: 6.0 }),
      pipe({ eventType: 'pipeline_error', sequence: 0 }),
      pipe({ eventType: 'pipeline_error', sequence: 'x' }),
    ],
    expected: [
      custom({ eventId: 'a', eventType: 'pipeline_started', sequence: 5 }),
      custom({ eventId: 'c', eventType: 'pipeline_warning', sequence: 6 }),
      custom({ eventType: 'pipeline_error', sequence: 0 }),
      custom({ eventType: 'pipeline_error', sequence: 'x' }),
    ],
    cursor: 6,
  },
  {
    name: 'the seeded pipelineSequence is not a live filter (it only parameterises recovery)',
    seed: { pipelineSequence: 9 },
    frames: [pipe({ eventId: 'a', eventType: 'pipeline_started', sequence: 4 })],
    expected: [custom({ eventId: 'a', eventType: 'pipeline_started', sequence: 4 })],
    cursor: 9,
  },
  {
    name: 'a finish for a step that is not durably open is ignored; step_failed is still CUSTOM',
    frames: [pipe({ eventId: 'f', eventType: 'step_failed', step: { id: 'never-started' } })],
    expected: [custom({ eventId: 'f', eventType: 'step_failed', step: { id: 'never-started' } })],
  },
  {
    name: 'candidate_step_failed finishes the step and is forwarded as CUSTOM',
    frames: [
      pipe({
        eventId: 's',
        eventType: 'candidate_step_started',
        candidate: { id: 'c1' },
        candidateStep: { id: 'x' },
      }),
      pipe({
        eventId: 'f',
        eventType: 'candidate_step_failed',
        candidate: { id: 'c1' },
        candidateStep: { id: 'x' },
      }),
    ],
    expected: [
      stepStarted('candidate:c1:x'),
      stepFinished('candidate:c1:x'),
      custom({
        eventId: 'f',
        eventType: 'candidate_step_failed',
        candidate: { id: 'c1' },
        candidateStep: { id: 'x' },
      }),
    ],
    durable: [],
  },
  {
    name: 'a Pipeline tool result and the live iac_code.tool result of the same tool give one RESULT',
    frames: [
      pipe({
        eventId: 'r',
        eventType: 'tool_result',
        data: { toolUseId: 't1', isError: true, result: { code: 1 } },
      }),
      frameOf({ tool: { status: 'completed', toolUseId: 't1', result: 'late' } }),
    ],
    expected: [toolResult('t1', '{"code":1}')],
  },
  {
    name: 'Pipeline envelopes map before the rest of the frame (docs/behaviour/events.md#mapping-order), text before a tool is its parent',
    frames: [
      frameOf({
        thinking: { type: 'raw_thinking', text: 'R' },
        pipeline: { eventId: 'p', eventType: 'text_delta', scope: 'pipeline', data: { text: 'T' } },
        tool: { status: 'started', toolUseId: 'c', name: 'n' },
      }),
    ],
    expected: [
      textStart(`${PIPE}:pipeline`),
      text('T', `${PIPE}:pipeline`),
      ...reasoningOpen(`reasoning-${PIPE}:pipeline`),
      reasoning('R', `reasoning-${PIPE}:pipeline`),
      at({
        type: EventType.TOOL_CALL_START,
        toolCallId: 'c',
        toolCallName: 'n',
        parentMessageId: `${PIPE}:pipeline`,
      }),
    ],
    closing: [
      ...reasoningClose(`reasoning-${PIPE}:pipeline`),
      at({ type: EventType.TOOL_CALL_END, toolCallId: 'c' }),
      textEnd(`${PIPE}:pipeline`),
    ],
  },
];

describe('Pipeline projection (live)', () => {
  it.each([...cases, ...dedupeCases])(
    '$name',
    async ({ seed, reopen, frames, options, expected, closing = [], durable, cursor }) => {
      const mapper = new A2aEventMapper(RUN, () => 'id', seed);
      const reopened = reopen ? mapper.reopenDurableSteps(NOW) : [];
      expect(reopened).toEqual(reopen ?? []);
      const events = frames.flatMap((frame) => mapper.map(frame, NOW, options));
      expect(events).toEqual(expected);
      if (durable) expect(mapper.durableOpenSteps).toEqual(durable);
      if (cursor !== undefined) expect(mapper.pipelineCursor).toBe(cursor);
      const closed = mapper.closeAll(NOW);
      expect(closed).toEqual(closing);
      expect(mapper.closeAll(NOW)).toEqual([]);
      if (durable) expect(mapper.durableOpenSteps).toEqual(durable); // closeAll keeps the durable set
      const run = [
        runStarted(RUN, undefined, NOW),
        ...reopened,
        ...events,
        ...closed,
        runFinished(RUN, mapper.usage(), NOW),
      ];
      await expectConformantEvents(run);
      expectEncoderBytes(run);
    },
  );

  it('records Pipeline usage into the run usage', () => {
    const mapper = new A2aEventMapper(RUN, () => 'id');
    mapper.map(
      pipe({
        eventId: 'usage-1',
        eventType: 'usage',
        data: {
          provider: 'dashscope',
          model: 'qwen-test',
          inputTokens: 12,
          outputTokens: 3,
          totalTokens: 15,
          cachedInputTokens: 2,
        },
      }),
      NOW,
    );
    expect(mapper.usage()).toEqual([
      {
        provider: 'dashscope',
        model: 'qwen-test',
        inputTokens: 12,
        outputTokens: 3,
        totalTokens: 15,
        cachedInputTokens: 2,
      },
    ]);
  });

  it('the session id is read from pipelineBatch envelopes', () => {
    const frame = batch({ eventType: 'step_started', iacCodeSessionId: 'session-1' });
    expect(unwrapFrame(frame).sessionId).toBe('session-1');
    expect(new A2aEventMapper(RUN, () => 'id').map(frame, NOW)).toEqual([]);
  });

  it('a candidate step start opened in a previous frame is not reopened, but stays durable', () => {
    const mapper = new A2aEventMapper(RUN, () => 'id');
    const start = {
      eventType: 'candidate_step_started',
      candidate: { subPipelineId: 'sub-1' },
      candidateStep: { id: 'x' },
    };
    expect(mapper.map(pipe({ eventId: '1', ...start }), NOW)).toEqual([stepStarted('candidate:sub-1:x')]);
    expect(mapper.map(pipe({ eventId: '2', ...start }), NOW)).toEqual([]);
    expect(mapper.reopenDurableSteps(NOW)).toEqual([]);
    expect(mapper.durableOpenSteps).toEqual(['candidate:sub-1:x']);
  });

  it('the seeded pipelineRunId names Pipeline text streams; it defaults to pipeline-<threadId>', () => {
    const seeded = new A2aEventMapper(RUN, () => 'id', { pipelineRunId: 'pipeline-7' });
    const frame = pipe({ eventId: 'x', eventType: 'text_delta', data: { text: 'hi' } });
    expect(seeded.pipelineRunId).toBe('pipeline-7');
    expect(seeded.map(frame, NOW)[0]).toMatchObject({ messageId: 'pipeline-message:pipeline-7:pipeline' });
    expect(new A2aEventMapper(RUN, () => 'id').pipelineRunId).toBe('pipeline-thread-1');
  });
});
