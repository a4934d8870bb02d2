import {
  buildConversation,
  findOpenInterrupts,
  latestExecutionId,
  sumUsage,
} from '../../playground/src/conversation';
import { describeResponseSchema } from '../../playground/src/response-form';
import type { TurnRecord, WireEvent } from '../../playground/src/thread-record';

/**
 * The playground's pure parts (no DOM): the form each interrupt gets from its responseSchema, and the
 * conversation rebuilt from recorded events. The schemas are the gateway's own (src/interrupts).
 */
const PERMISSION_SCHEMA = {
  type: 'object',
  properties: { decision: { type: 'string', enum: ['allow_once', 'deny'] } },
  required: ['decision'],
  additionalProperties: false,
};
const STANDARD_OPTIONS = {
  standardOptions: [
    { id: 'allow_once', title: 'Allow once' },
    { id: 'deny', title: 'Deny' },
  ],
};
const option = (id: string, title: string) => ({
  type: 'object',
  properties: { selectedId: { type: 'string', const: id, title } },
  required: ['selectedId'],
});
const FREE_TEXT = {
  type: 'object',
  properties: { freeText: { type: 'string', minLength: 1 } },
  required: ['freeText'],
};

describe('describeResponseSchema', () => {
  it.each([
    {
      name: 'enum → one button per value, titled from standardOptions',
      schema: PERMISSION_SCHEMA,
      metadata: STANDARD_OPTIONS,
      expected: {
        kind: 'buttons',
        choices: [
          { label: 'Allow once', payload: { decision: 'allow_once' } },
          { label: 'Deny', payload: { decision: 'deny' } },
        ],
      },
    },
    {
      name: 'enum without titles → the raw values',
      schema: PERMISSION_SCHEMA,
      metadata: undefined,
      expected: {
        kind: 'buttons',
        choices: [
          { label: 'allow_once', payload: { decision: 'allow_once' } },
          { label: 'deny', payload: { decision: 'deny' } },
        ],
      },
    },
    {
      name: 'oneOf with selectedId consts and freeText → choice list plus a text field',
      schema: { oneOf: [option('plan-a', 'Plan A'), option('plan-b', 'Plan B'), FREE_TEXT] },
      metadata: undefined,
      expected: {
        kind: 'choices',
        choices: [
          { label: 'Plan A', payload: { selectedId: 'plan-a' } },
          { label: 'Plan B', payload: { selectedId: 'plan-b' } },
        ],
        freeTextField: 'freeText',
      },
    },
    {
      name: 'oneOf with free text only → a text field alone',
      schema: { oneOf: [FREE_TEXT] },
      metadata: undefined,
      expected: { kind: 'choices', choices: [], freeTextField: 'freeText' },
    },
    { name: 'no schema → JSON', schema: undefined, metadata: undefined, expected: { kind: 'json' } },
    {
      name: 'an object of two properties → JSON',
      schema: { type: 'object', properties: { a: { enum: [1] }, b: { enum: [2] } } },
      metadata: undefined,
      expected: { kind: 'json' },
    },
    {
      name: 'a oneOf branch that is neither a const nor text → JSON',
      schema: { oneOf: [option('a', 'A'), { type: 'object', properties: { n: { type: 'number' } } }] },
      metadata: undefined,
      expected: { kind: 'json' },
    },
  ])('$name', ({ schema, metadata, expected }) =>
    expect(describeResponseSchema(schema, metadata)).toEqual(expected),
  );
});

const event = (type: string, fields: Record<string, unknown> = {}): WireEvent => ({ type, ...fields });
const session = (executionId: string) =>
  event('CUSTOM', { name: 'iac-code.session.v1', value: { executionId, threadId: 't' } });
const interrupted = (id: string) =>
  event('RUN_FINISHED', { outcome: { type: 'interrupt', interrupts: [{ id, message: `${id}?` }] } });

const permissionTurn: TurnRecord = {
  runId: 'run-1',
  rosInvocationId: 'inv-1',
  request: { kind: 'prompt', text: 'permission' },
  events: [
    event('RUN_STARTED'),
    session('exec-1'),
    event('TEXT_MESSAGE_START', { messageId: 'm' }),
    event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'I will ' }),
    event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'check.' }),
    event('TOOL_CALL_START', { toolCallId: 'tool-1', toolCallName: 'bash' }),
    event('TOOL_CALL_ARGS', { toolCallId: 'tool-1', delta: '{"command":' }),
    event('TOOL_CALL_ARGS', { toolCallId: 'tool-1', delta: '"pwd"}' }),
    event('TOOL_CALL_END', { toolCallId: 'tool-1' }),
    event('TEXT_MESSAGE_END', { messageId: 'm' }),
    interrupted('permission-1'),
  ],
};
const resumeTurn = (events: WireEvent[], failure?: TurnRecord['failure']): TurnRecord => ({
  runId: 'run-2',
  rosInvocationId: 'inv-1',
  request: { kind: 'resume', answers: [{ interruptId: 'permission-1', label: 'Allow once', payload: {} }] },
  events,
  ...(failure ? { failure } : {}),
});

describe('buildConversation', () => {
  it('puts text, tool arguments, the later tool result, the answer and usage in order', () => {
    const resumed = resumeTurn([
      event('RUN_STARTED'),
      event('TOOL_CALL_RESULT', { toolCallId: 'tool-1', messageId: 'r', content: '/workspace' }),
      event('TEXT_MESSAGE_START', { messageId: 'm' }),
      event('TEXT_MESSAGE_CONTENT', { messageId: 'm', delta: 'Done.' }),
      event('TEXT_MESSAGE_END', { messageId: 'm' }),
      event('RUN_FINISHED', {
        outcome: { type: 'success' },
        usage: [{ provider: 'demo', inputTokens: 10, outputTokens: 5, totalTokens: 15 }],
      }),
    ]);
    const entries = buildConversation({ turns: [permissionTurn, resumed] }).map(
      ({ key: _key, ...rest }) => rest,
    );
    expect(entries).toEqual([
      { kind: 'user', text: 'permission' },
      { kind: 'assistant', text: 'I will check.' },
      { kind: 'tool', name: 'bash', args: '{"command":"pwd"}', result: '/workspace', progress: [] },
      { kind: 'interrupt', message: 'permission-1?' },
      { kind: 'finished', outcome: 'interrupt' },
      { kind: 'answer', labels: ['Allow once'] },
      { kind: 'assistant', text: 'Done.' },
      { kind: 'usage', usage: [{ provider: 'demo', inputTokens: 10, outputTokens: 5, totalTokens: 15 }] },
      { kind: 'finished', outcome: 'success' },
    ]);
  });

  it('shows reasoning, steps, pipeline and other custom events, and RUN_ERROR with its code', () => {
    const turn: TurnRecord = {
      runId: 'run-1',
      rosInvocationId: 'inv-1',
      request: { kind: 'prompt', text: 'pipeline' },
      events: [
        event('RUN_STARTED'),
        event('REASONING_START', { messageId: 'r' }),
        event('REASONING_MESSAGE_START', { messageId: 'r', role: 'reasoning' }),
        event('REASONING_MESSAGE_CONTENT', { messageId: 'r', delta: 'Thinking.' }),
        event('CUSTOM', {
          name: 'iac-code.pipeline.v1',
          value: { eventType: 'pipeline_started', scope: 'pipeline', data: { pipelineName: 'vpc' } },
        }),
        event('STEP_STARTED', { stepName: 'generate' }),
        event('STEP_FINISHED', { stepName: 'generate' }),
        event('CUSTOM', {
          name: 'iac-code.artifact.v1',
          value: { name: 'a.yaml', parts: [{ text: 'x: 1' }] },
        }),
        event('CUSTOM', { name: 'vendor.thing', value: { n: 1 } }),
        event('RUN_ERROR', { code: 'CANCELLED', message: 'The execution was cancelled.' }),
      ],
    };
    const entries = buildConversation({ turns: [turn] }).map(({ key: _key, ...rest }) => rest);
    expect(entries).toEqual([
      { kind: 'user', text: 'pipeline' },
      { kind: 'reasoning', text: 'Thinking.' },
      { kind: 'pipeline', eventType: 'pipeline_started', detail: 'scope=pipeline pipelineName=vpc' },
      { kind: 'step', name: 'generate', finished: true },
      { kind: 'artifact', name: 'a.yaml', text: 'x: 1' },
      { kind: 'custom', name: 'vendor.thing', value: { n: 1 } },
      { kind: 'error', code: 'CANCELLED', message: 'The execution was cancelled.' },
    ]);
  });
});

describe('findOpenInterrupts', () => {
  const finishedResume = resumeTurn([
    event('RUN_STARTED'),
    event('RUN_FINISHED', { outcome: { type: 'success' } }),
  ]);
  it.each([
    { name: 'the interrupted run', turns: [permissionTurn], expected: ['permission-1'] },
    { name: 'answered by a finished resume', turns: [permissionTurn, finishedResume], expected: undefined },
    {
      name: 'a resume refused before its stream',
      turns: [permissionTurn, resumeTurn([], { code: 'HTTP 409', message: 'busy' })],
      expected: ['permission-1'],
    },
    {
      name: 'a resume that ended in RUN_ERROR',
      turns: [
        permissionTurn,
        resumeTurn([event('RUN_STARTED'), event('RUN_ERROR', { code: 'RESUME_PAYLOAD_INVALID' })]),
      ],
      expected: ['permission-1'],
    },
    { name: 'no runs', turns: [], expected: undefined },
  ])('$name', ({ turns, expected }) => {
    const open = findOpenInterrupts({ turns });
    expect(open?.interrupts.map((interrupt) => interrupt.id)).toEqual(expected);
    if (expected) expect(open?.turn.rosInvocationId).toBe('inv-1');
  });
});

describe('usage and execution id', () => {
  it('sums RUN_FINISHED and RUN_ERROR usage over the thread, filling a missing total', () => {
    const turns: TurnRecord[] = [
      {
        ...permissionTurn,
        events: [event('RUN_FINISHED', { usage: [{ inputTokens: 3, outputTokens: 4 }] })],
      },
      {
        ...permissionTurn,
        events: [
          event('RUN_ERROR', {
            code: 'X',
            message: 'y',
            usage: [{ inputTokens: 1, outputTokens: 1, totalTokens: 2 }],
          }),
        ],
      },
    ];
    expect(sumUsage({ turns })).toEqual({ inputTokens: 4, outputTokens: 5, totalTokens: 9 });
  });

  it('reads the executionId of the newest iac-code.session.v1 event', () => {
    expect(latestExecutionId({ events: [session('exec-1'), session('exec-2')] })).toBe('exec-2');
    expect(latestExecutionId({ events: [event('RUN_STARTED')] })).toBeUndefined();
  });
});
