import { EventType, type BaseEvent } from '@ag-ui/core';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import { expectEncoderBytes } from '../../test/support/sse-frame-bytes';
import type { A2aFrame } from '../wire/a2a-wire';
import { A2aEventMapper, type MapOptions } from './a2a-event-mapper';
import { runFinished, runStarted } from './run-events';

const NOW = 1_700_000_000_000;
const RUN = { threadId: 'thread-1', runId: 'run-1' };
const MSG = 'task-1-message'; // the kernel's message id for every text delta of a task

// Kernel-shaped frames (reference docs/behaviour/a2a.md#the-kernels-own-behaviour): StreamResponse objects with A2A 1.0 enums.
type IacCode = Record<string, unknown>;
const task = (state: string, extra: Record<string, unknown> = {}): A2aFrame => ({
  task: { id: 'task-1', contextId: 'ctx-1', status: { state: `TASK_STATE_${state}` }, ...extra },
});
const status = (
  state: string,
  opts: { text?: string; messageId?: string; role?: string; iacCode?: IacCode } = {},
) => {
  const message =
    opts.text === undefined
      ? undefined
      : { messageId: opts.messageId ?? MSG, role: opts.role ?? 'ROLE_AGENT', parts: [{ text: opts.text }] };
  return {
    statusUpdate: {
      taskId: 'task-1',
      contextId: 'ctx-1',
      status: { state: `TASK_STATE_${state}`, ...(message && { message }) },
      ...(opts.iacCode && { metadata: { iac_code: opts.iacCode } }),
    },
  } as A2aFrame;
};
const delta = (text: string, messageId?: string) => status('WORKING', { text, messageId });
const meta = (iacCode: IacCode) => status('WORKING', { iacCode });
const thinking = (text: string, type = 'raw_thinking') => meta({ thinking: { type, text } });
const tool = (fields: IacCode) => meta({ tool: fields });

// Expected events, stamped like the mapper stamps them.
const at = (event: Omit<BaseEvent, 'timestamp'>): BaseEvent => ({ ...event, timestamp: NOW }) as BaseEvent;
const textStart = (messageId = MSG) =>
  at({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' });
const text = (delta: string, messageId = MSG) =>
  at({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta });
const textEnd = (messageId = MSG) => at({ type: EventType.TEXT_MESSAGE_END, messageId });
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
const toolStart = (toolCallId: string, toolCallName: string, parentMessageId?: string) =>
  at({
    type: EventType.TOOL_CALL_START,
    toolCallId,
    toolCallName,
    ...(parentMessageId && { parentMessageId }),
  });
const toolArgs = (toolCallId: string, delta: string) =>
  at({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta });
const toolEnd = (toolCallId: string) => at({ type: EventType.TOOL_CALL_END, toolCallId });
const toolResult = (toolCallId: string, content: string) =>
  at({
    type: EventType.TOOL_CALL_RESULT,
    messageId: `tool-result-${toolCallId}`,
    toolCallId,
    content,
    role: 'tool',
  });
const custom = (name: string, value: unknown) => at({ type: EventType.CUSTOM, name, value });

interface MapperCase {
  name: string;
  frames: A2aFrame[];
  expected: BaseEvent[];
  closing?: BaseEvent[];
  options?: MapOptions;
}

const textCases: MapperCase[] = [
  {
    name: 'kernel text turn: deltas stream, the assistantFinal repeat and INPUT_REQUIRED add nothing',
    frames: [
      task('SUBMITTED', { history: [{ messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }] }),
      status('SUBMITTED'),
      status('WORKING'),
      delta('Hel'),
      delta('lo'),
      status('WORKING', { text: 'Hello', iacCode: { assistantFinal: { complete: true } } }),
      status('INPUT_REQUIRED'),
    ],
    expected: [textStart(), text('Hel'), text('lo')],
    closing: [textEnd()],
  },
  {
    name: 'an assistantFinal frame is the answer when no text came before it',
    frames: [status('WORKING', { text: 'Whole answer', iacCode: { assistantFinal: { complete: true } } })],
    expected: [textStart(), text('Whole answer')],
    closing: [textEnd()],
  },
  {
    name: 'text without a message id continues the current message, else gets assistant-<hex>',
    frames: [
      {
        statusUpdate: {
          taskId: 'task-1',
          status: { state: 'TASK_STATE_WORKING', message: { parts: [{ text: 'a' }] } },
        },
      },
      {
        statusUpdate: {
          taskId: 'task-1',
          status: { state: 'TASK_STATE_WORKING', message: { parts: [{ text: 'b' }] } },
        },
      },
    ],
    expected: [textStart('assistant-id1'), text('a', 'assistant-id1'), text('b', 'assistant-id1')],
    closing: [textEnd('assistant-id1')],
  },
  {
    name: 'a new message id closes the current message first',
    frames: [delta('one', 'm1'), delta('two', 'm2')],
    expected: [textStart('m1'), text('one', 'm1'), textEnd('m1'), textStart('m2'), text('two', 'm2')],
    closing: [textEnd('m2')],
  },
  {
    name: 'user-role status messages and non-text parts are not agent text',
    frames: [
      status('WORKING', { text: 'echo', role: 'ROLE_USER' }),
      {
        statusUpdate: {
          status: { state: 'TASK_STATE_WORKING', message: { role: 'ROLE_AGENT', parts: [{ data: {} }] } },
        },
      },
    ],
    expected: [],
  },
  {
    name: 'a JSON-RPC envelope and a bare agent message are unwrapped',
    frames: [
      { jsonrpc: '2.0', id: 1, result: { statusUpdate: status('WORKING', { text: 'x' }).statusUpdate } },
      { message: { messageId: MSG, role: 'ROLE_AGENT', parts: [{ text: 'y' }] } },
    ],
    expected: [textStart(), text('x'), text('y')],
    closing: [textEnd()],
  },
  {
    name: 'a GetTask snapshot without status text falls back to the trailing agent messages of history',
    frames: [
      task('INPUT_REQUIRED', {
        history: [
          { messageId: 'a0', role: 'ROLE_AGENT', parts: [{ text: 'old' }] },
          { messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'q' }] },
          { messageId: 'a1', role: 'ROLE_AGENT', parts: [{ text: 'first ' }] },
          { messageId: 'a2', role: 'ROLE_AGENT', parts: [{ text: 'second' }] },
        ],
      }),
    ],
    expected: [textStart('a2'), text('first second', 'a2')],
    closing: [textEnd('a2')],
  },
  {
    name: "the kernel's ended turn: its deltas and the whole-answer repeat in history give the answer once",
    frames: [
      task('INPUT_REQUIRED', {
        history: [
          { messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'q' }] },
          { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'Hel' }] },
          { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'lo' }] },
          { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'Hello' }] },
        ],
      }),
    ],
    expected: [textStart('m'), text('Hello', 'm')],
    closing: [textEnd('m')],
  },
  {
    name: 'history cut at historyLength inside the turn: the repeat still ends with the deltas listed, and is the answer',
    frames: [
      task('INPUT_REQUIRED', {
        history: [
          { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'lo' }] },
          { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'Hello' }] },
        ],
      }),
    ],
    expected: [textStart('m'), text('Hello', 'm')],
    closing: [textEnd('m')],
  },
  {
    name: 'after the user message, a last message that only ends with the ones before it is no repeat: all joined',
    frames: [
      task('INPUT_REQUIRED', {
        history: [
          { messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'q' }] },
          { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'lo' }] },
          { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'Hello' }] },
        ],
      }),
    ],
    expected: [textStart('m'), text('loHello', 'm')],
    closing: [textEnd('m')],
  },
  {
    name: 'includeStatusText: false maps no status or history text',
    frames: [
      delta('hidden'),
      task('WORKING', { history: [{ messageId: 'a', role: 'ROLE_AGENT', parts: [{ text: 'h' }] }] }),
    ],
    options: { includeStatusText: false },
    expected: [],
  },
];

const reasoningCases: MapperCase[] = [
  {
    name: 'reasoning then text: the reasoning span closes before the text opens',
    frames: [thinking('Let me '), thinking('think'), delta('Answer')],
    expected: [
      ...reasoningOpen('reasoning-run-1'),
      reasoning('Let me ', 'reasoning-run-1'),
      reasoning('think', 'reasoning-run-1'),
      ...reasoningClose('reasoning-run-1'),
      textStart(),
      text('Answer'),
    ],
    closing: [textEnd()],
  },
  {
    name: 'thinking and text in one frame: thinking first, then text closes it',
    frames: [status('WORKING', { text: 'A', iacCode: { thinking: { type: 'raw_thinking', text: 'T' } } })],
    expected: [
      ...reasoningOpen('reasoning-run-1'),
      reasoning('T', 'reasoning-run-1'),
      ...reasoningClose('reasoning-run-1'),
      textStart(),
      text('A'),
    ],
    closing: [textEnd()],
  },
  {
    name: 'reasoning after text is named after the current message and closed by closeAll',
    frames: [delta('A'), thinking('more')],
    expected: [
      textStart(),
      text('A'),
      ...reasoningOpen(`reasoning-${MSG}`),
      reasoning('more', `reasoning-${MSG}`),
    ],
    closing: [...reasoningClose(`reasoning-${MSG}`), textEnd()],
  },
  {
    name: 'summarised or empty thinking is ignored',
    frames: [thinking('summary', 'summary'), thinking(''), meta({ thinking: 'raw' })],
    expected: [],
  },
];

const toolCases: MapperCase[] = [
  {
    name: 'tool started → input_complete → completed: START, ARGS, END, one RESULT',
    frames: [
      delta('Reading'),
      tool({ status: 'started', toolUseId: 'call-1', name: 'read_file' }),
      tool({ status: 'input_delta', toolUseId: 'call-1', name: 'read_file' }),
      tool({
        status: 'input_complete',
        toolUseId: 'call-1',
        name: 'read_file',
        toolInput: { path: '/tmp/a b', ünï: 'çé', args: [2, 1], nested: { z: 1, a: null } },
      }),
      tool({ status: 'completed', toolUseId: 'call-1', name: 'read_file', result: { ok: true, lines: 3 } }),
      tool({ status: 'completed', toolUseId: 'call-1', name: 'read_file', result: { ok: true, lines: 3 } }),
      tool({ status: 'failed', toolUseId: 'call-1', result: 'late' }),
    ],
    expected: [
      textStart(),
      text('Reading'),
      toolStart('call-1', 'read_file', MSG),
      toolArgs('call-1', '{"args":[2,1],"nested":{"a":null,"z":1},"path":"/tmp/a b","ünï":"çé"}'),
      toolEnd('call-1'),
      toolResult('call-1', '{"lines":3,"ok":true}'),
    ],
    closing: [textEnd()],
  },
  {
    name: 'input_complete alone opens the call; a summary stands in for the input; ids and names fall back',
    frames: [
      tool({ status: 'input_complete', inputSummary: 'List files' }),
      tool({ status: 'input_complete', toolUseId: 'call-2', name: 'ls' }),
    ],
    expected: [
      toolStart('tool-id1', 'tool'),
      toolArgs('tool-id1', '{"summary":"List files"}'),
      toolEnd('tool-id1'),
      toolStart('call-2', 'ls'),
      toolArgs('call-2', '{"summary":null}'),
      toolEnd('call-2'),
    ],
  },
  {
    name: 'a failed tool sends its string result as-is, without an error flag',
    frames: [tool({ status: 'failed', toolUseId: 'call-3', result: 'Permission denied: ñ' })],
    expected: [toolResult('call-3', 'Permission denied: ñ')],
  },
  {
    name: 'tool progress becomes CUSTOM iac-code.tool-progress.v1 with the whole tool object',
    frames: [tool({ status: 'progress', toolUseId: 'call-4', name: 'deploy', progress: 0.5, detail: null })],
    expected: [
      custom('iac-code.tool-progress.v1', {
        schemaVersion: 1,
        status: 'progress',
        toolUseId: 'call-4',
        name: 'deploy',
        progress: 0.5,
        detail: null,
      }),
    ],
  },
  {
    name: 'unknown tool statuses and non-object tools map to nothing',
    frames: [tool({ status: 'queued', toolUseId: 'call-5' }), meta({ tool: 'x' })],
    expected: [],
  },
];

const otherCases: MapperCase[] = [
  {
    name: 'an artifact update becomes CUSTOM iac-code.artifact.v1 with schemaVersion 1',
    frames: [
      {
        artifactUpdate: {
          taskId: 'task-1',
          contextId: 'ctx-1',
          artifact: {
            artifactId: 'art-1',
            name: 'template.yaml',
            parts: [{ text: 'ROSTemplateFormatVersion' }],
          },
        },
      },
    ],
    expected: [
      custom('iac-code.artifact.v1', {
        schemaVersion: 1,
        artifactId: 'art-1',
        name: 'template.yaml',
        parts: [{ text: 'ROSTemplateFormatVersion' }],
      }),
    ],
  },
  {
    name: 'one frame maps in the order thinking, tool, usage, artifact, text (docs/behaviour/events.md#mapping-order)',
    frames: [
      {
        statusUpdate: {
          taskId: 'task-1',
          status: {
            state: 'TASK_STATE_WORKING',
            message: { messageId: MSG, role: 'ROLE_AGENT', parts: [{ text: 'T' }] },
          },
          artifact: { artifactId: 'a' },
          metadata: {
            iac_code: {
              usage: { inputTokens: 1 },
              tool: { status: 'started', toolUseId: 'c', name: 'n' },
              thinking: { type: 'raw_thinking', text: 'R' },
            },
          },
        },
      },
    ],
    expected: [
      ...reasoningOpen('reasoning-run-1'),
      reasoning('R', 'reasoning-run-1'),
      toolStart('c', 'n'),
      custom('iac-code.artifact.v1', { schemaVersion: 1, artifactId: 'a' }),
      ...reasoningClose('reasoning-run-1'),
      textStart(),
      text('T'),
    ],
    closing: [toolEnd('c'), textEnd()],
  },
  {
    name: 'closeAll with text, reasoning and tools open: reasoning, tools sorted, then text',
    frames: [
      delta('x', 'm1'),
      tool({ status: 'started', toolUseId: 'call-b', name: 'b' }),
      tool({ status: 'started', toolUseId: 'call-a', name: 'a' }),
      thinking('hmm'),
    ],
    expected: [
      textStart('m1'),
      text('x', 'm1'),
      toolStart('call-b', 'b', 'm1'),
      toolStart('call-a', 'a', 'm1'),
      ...reasoningOpen('reasoning-m1'),
      reasoning('hmm', 'reasoning-m1'),
    ],
    closing: [...reasoningClose('reasoning-m1'), toolEnd('call-a'), toolEnd('call-b'), textEnd('m1')],
  },
];

function idSource(): () => string {
  let next = 0;
  return () => `id${++next}`;
}

describe('A2aEventMapper', () => {
  it.each([...textCases, ...reasoningCases, ...toolCases, ...otherCases])(
    '$name',
    async ({ frames, expected, closing = [], options }) => {
      const mapper = new A2aEventMapper(RUN, idSource());
      const events = frames.flatMap((frame) => mapper.map(frame, NOW, options));
      expect(events).toEqual(expected);
      const closed = mapper.closeAll(NOW);
      expect(closed).toEqual(closing);
      expect(mapper.closeAll(NOW)).toEqual([]);
      const run = [
        runStarted(RUN, undefined, NOW),
        ...events,
        ...closed,
        runFinished(RUN, mapper.usage(), NOW),
      ];
      await expectConformantEvents(run);
      expectEncoderBytes(run);
    },
  );

  it('reports whether text went out', () => {
    const mapper = new A2aEventMapper(RUN, idSource());
    mapper.map(thinking('t'), NOW);
    expect(mapper.hasEmittedText).toBe(false);
    mapper.map(delta('x'), NOW);
    expect(mapper.hasEmittedText).toBe(true);
  });

  it('records usage without events and aggregates it for RUN_FINISHED', async () => {
    const mapper = new A2aEventMapper(RUN, idSource());
    const usage = (fields: IacCode) => meta({ usage: fields });
    const events = [
      usage({
        provider: 'dashscope',
        model: 'qwen',
        inputTokens: 6000.0,
        outputTokens: 20,
        totalTokens: 6020,
      }),
      usage({ provider: 'dashscope', model: 'qwen', inputTokens: 497, outputTokens: 6.0, totalTokens: 503 }),
      usage({ provider: 'openai', model: 'gpt', inputTokens: true, outputTokens: 1.5, cachedInputTokens: 2 }),
    ].flatMap((frame) => mapper.map(frame, NOW));
    expect(events).toEqual([]);
    expect(mapper.usage()).toEqual([
      {
        provider: 'dashscope',
        model: 'qwen',
        inputTokens: 6497,
        outputTokens: 26,
        totalTokens: 6523,
        cachedInputTokens: 0,
      },
      {
        provider: 'openai',
        model: 'gpt',
        inputTokens: 0,
        outputTokens: 0,
        totalTokens: 0,
        cachedInputTokens: 2,
      },
    ]);
    const finished = runFinished(RUN, mapper.usage(), NOW);
    expect(finished.usage).toHaveLength(2);
    await expectConformantEvents([runStarted(RUN, undefined, NOW), finished]);
  });

  it('reports no usage when the upstream sent none', () => {
    const mapper = new A2aEventMapper(RUN, idSource());
    mapper.map(delta('x'), NOW);
    expect(mapper.usage()).toBeUndefined();
    expect(runFinished(RUN, mapper.usage(), NOW)).not.toHaveProperty('usage');
  });

  it('stamps every event with the now of its call', () => {
    const mapper = new A2aEventMapper(RUN, idSource());
    const first = mapper.map(thinking('a'), 1);
    const second = mapper.map(delta('b'), 2);
    expect(first.map((event) => event.timestamp)).toEqual([1, 1, 1]);
    expect(second.map((event) => event.timestamp)).toEqual([2, 2, 2, 2]);
  });
});
