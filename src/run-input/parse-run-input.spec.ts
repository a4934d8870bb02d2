import { HttpAgent } from '@ag-ui/client';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { MAX_ID_LENGTH } from '../common/max-id-length';
import { MAX_LLM_HEADERS, STRING_BOUNDS } from '../common/string-bounds';
import type { MessageKey } from '../i18n/message-key';
import { parseRunAgentInput, preferredLanguageOf } from './parse-run-input';

type Plain = Record<string, unknown>;

const IAC_CODE = { schemaVersion: 1, rosInvocationId: 'invocation-1', cwd: '/workspace/session-1' };
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The seed's minimal example (seed 000, "Exemplo mínimo"). */
function body(overrides: Plain = {}): Plain {
  return {
    threadId: 'thread-1',
    runId: 'run-1',
    state: {},
    messages: [{ id: 'message-1', role: 'user', content: 'Create a VPC template' }],
    tools: [],
    context: [],
    forwardedProps: { iacCode: { ...IAC_CODE } },
    ...overrides,
  };
}

const withIacCode = (fields: Plain) => body({ forwardedProps: { iacCode: { ...IAC_CODE, ...fields } } });
const withMessage = (message: Plain) => body({ messages: [message] });
const user = (content: unknown, extra: Plain = {}) => ({ id: 'u1', role: 'user', content, ...extra });
const image = (source: unknown, extra: Plain = {}) => ({ type: 'image', source, ...extra });
const dataSource = { type: 'data', value: PNG_1PX, mimeType: 'image/png' };

function failureOf(run: () => unknown): { code: ErrorCode; key: MessageKey; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AguiError)
      return { code: error.code, key: error.messageKey, message: error.message };
    throw error;
  }
  throw new Error('expected the input to be rejected');
}

describe('parseRunAgentInput: accepted envelopes', () => {
  const messageRows: { name: string; message: Plain }[] = [
    { name: 'user, string content', message: user('hello') },
    {
      name: 'user, text part',
      message: user([{ type: 'text', text: 'hi', id: 'p1', metadata: { any: [1] } }]),
    },
    {
      name: 'user, image with data source',
      message: user([image(dataSource, { metadata: { filename: 'a.png' } })]),
    },
    {
      name: 'user, image with url source',
      message: user([image({ type: 'url', value: 'https://x/a.png' })]),
    },
    {
      name: 'user, image with file source',
      message: user([image({ type: 'file', value: 'file-123', provider: 'openai', mimeType: 'image/png' })]),
    },
    {
      name: 'user, audio part',
      message: user([{ type: 'audio', source: { ...dataSource, mimeType: 'audio/wav' } }]),
    },
    {
      name: 'user, video part',
      message: user([{ type: 'video', source: { type: 'url', value: 'https://x/v.mp4' } }]),
    },
    {
      name: 'user, document part',
      message: user([{ type: 'document', source: { type: 'file', value: 'doc-1' } }]),
    },
    {
      name: 'user, legacy binary with data',
      message: user([{ type: 'binary', mimeType: 'image/png', data: PNG_1PX, filename: 'a.png' }]),
    },
    {
      name: 'user, legacy binary with url',
      message: user([{ type: 'binary', mimeType: 'image/png', url: 'https://x' }]),
    },
    {
      name: 'user, legacy binary with id',
      message: user([{ type: 'binary', mimeType: 'application/pdf', id: 'f1' }]),
    },
    {
      name: 'user, every optional field',
      message: user('hi', { name: 'ana', encryptedValue: 'enc', metadata: { k: null }, subagentRunId: 's1' }),
    },
    {
      name: 'assistant with toolCalls',
      message: {
        id: 'a1',
        role: 'assistant',
        content: 'calling',
        name: 'bot',
        toolCalls: [
          {
            id: 'call-1',
            type: 'function',
            function: { name: 'search', arguments: '{"q":1}' },
            metadata: {},
          },
        ],
      },
    },
    { name: 'assistant without content', message: { id: 'a2', role: 'assistant' } },
    {
      name: 'tool, string content',
      message: { id: 't1', role: 'tool', content: 'ok', toolCallId: 'call-1' },
    },
    {
      name: 'tool, parts and error',
      message: {
        id: 't2',
        role: 'tool',
        content: [{ type: 'text', text: 'x' }],
        toolCallId: 'c',
        error: 'boom',
      },
    },
    { name: 'reasoning', message: { id: 'r1', role: 'reasoning', content: 'thinking', encryptedValue: 'e' } },
    { name: 'system', message: { id: 's1', role: 'system', content: 'be brief', name: 'sys' } },
    { name: 'developer', message: { id: 'd1', role: 'developer', content: 'use tools' } },
    {
      name: 'activity with free-form content',
      message: { id: 'act1', role: 'activity', activityType: 'plan', content: { steps: [{ any: 'thing' }] } },
    },
  ];

  it.each(messageRows)('$name parses and is kept as sent', ({ message }) => {
    const input = parseRunAgentInput(body({ messages: [message, user('newest')] }));
    expect(input.messages).toEqual([message, user('newest')]);
  });

  it('returns the envelope with iacCode defaults applied', () => {
    expect(parseRunAgentInput(body())).toStrictEqual({
      threadId: 'thread-1',
      runId: 'run-1',
      state: {},
      messages: [{ id: 'message-1', role: 'user', content: 'Create a VPC template' }],
      tools: [],
      context: [],
      forwardedProps: { iacCode: { ...IAC_CODE, cleanupOnly: false } },
    });
  });

  it('accepts the optional AG-UI 1.0 keys and defaults tools and context', () => {
    const input = parseRunAgentInput({
      threadId: 't',
      runId: 'r',
      protocolVersion: '1.0',
      parentRunId: 'r0',
      state: null,
      messages: [],
      forwardedProps: { iacCode: IAC_CODE },
      resume: [
        { interruptId: 'i1', status: 'resolved', payload: { approved: true }, metadata: { via: 'ui' } },
        { interruptId: 'i2', status: 'cancelled' },
      ],
    });
    expect(input).toStrictEqual({
      threadId: 't',
      runId: 'r',
      protocolVersion: '1.0',
      parentRunId: 'r0',
      messages: [],
      tools: [],
      context: [],
      forwardedProps: { iacCode: { ...IAC_CODE, cleanupOnly: false } },
      resume: [
        { interruptId: 'i1', status: 'resolved', payload: { approved: true }, metadata: { via: 'ui' } },
        { interruptId: 'i2', status: 'cancelled' },
      ],
    });
  });

  it.each([
    { name: 'a string', state: 'x' },
    { name: 'an array', state: [1, 2] },
    { name: 'an object with any keys', state: { constructor: 1, nested: { toString: 2 } } },
  ])('accepts any state: $name', ({ state }) => {
    expect(parseRunAgentInput(body({ state })).state).toEqual(state);
  });

  it('keeps free-form values whole, whatever their keys', () => {
    const tricky = JSON.parse(
      '{"constructor":{"prototype":1},"__proto__":{"x":1},"toString":"s","deep":[{"constructor":2}]}',
    );
    const message = user([{ type: 'text', text: 'x', metadata: tricky }], { metadata: tricky });
    const activity = { id: 'act', role: 'activity', activityType: 'plan', content: tricky };
    const input = parseRunAgentInput(
      body({
        state: tricky,
        messages: [activity, message],
        resume: [{ interruptId: 'i', status: 'resolved', payload: tricky }],
      }),
    );
    expect(input.state).toBe(tricky);
    expect(input.messages).toEqual([activity, message]);
    expect(input.resume?.[0].payload).toBe(tricky);
  });

  // AG-UI 1.0's RunAgentInputSchema is a loose object, and the published adapter accepts extra keys too.
  it.each([
    { name: 'a vendor key', value: body({ vendorExtension: { any: 1 } }) },
    { name: 'a snake_case alias next to its key', value: { ...body(), thread_id: 'other' } },
    { name: 'a key naming an inherited method', value: body({ toString: 'x' }) },
    { name: 'a __proto__ key', value: JSON.parse(`{"__proto__":5,${JSON.stringify(body()).slice(1)}`) },
  ])('ignores an unknown top-level key: $name', ({ value }) => {
    expect(parseRunAgentInput(value)).toStrictEqual(parseRunAgentInput(body()));
  });

  it('accepts ids of exactly 1,024 characters (code points, so emoji count once)', () => {
    const id = '😀'.repeat(MAX_ID_LENGTH);
    const input = parseRunAgentInput(body({ threadId: id, runId: id, messages: [user('hi', { id })] }));
    expect(input.threadId).toBe(id);
    expect(input.runId).toBe(id);
  });

  it('accepts context entries and an empty resume', () => {
    const input = parseRunAgentInput(body({ context: [{ description: 'd', value: 'v' }], resume: [] }));
    expect([input.context, input.resume]).toEqual([[{ description: 'd', value: 'v' }], []]);
  });

  it('parses exactly what HttpAgent 1.0 sends on its second run', async () => {
    const sent: string[] = [];
    const fetch = async (_url: string, init: RequestInit) => {
      sent.push(init.body as string);
      const { threadId, runId } = JSON.parse(init.body as string) as Plain;
      const events = [
        { type: 'RUN_STARTED', threadId, runId },
        { type: 'TEXT_MESSAGE_START', messageId: `reply-${sent.length}`, role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: `reply-${sent.length}`, delta: 'Done.' },
        { type: 'TEXT_MESSAGE_END', messageId: `reply-${sent.length}` },
        { type: 'RUN_FINISHED', threadId, runId },
      ];
      const sse = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
      return new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
    };
    const agent = new HttpAgent({ url: 'http://gateway.test/', threadId: 'thread-h', fetch });
    const forwardedProps = { iacCode: IAC_CODE };
    agent.addMessage({ id: 'u1', role: 'user', content: 'first' });
    await agent.runAgent({ runId: 'run-h1', forwardedProps });
    agent.addMessage({ id: 'u2', role: 'user', content: [{ type: 'text', text: 'second' }] });
    await agent.runAgent({ runId: 'run-h2', forwardedProps });

    const second = JSON.parse(sent[1]) as Plain;
    expect(Object.keys(second).sort()).toEqual(
      [
        'context',
        'forwardedProps',
        'messages',
        'protocolVersion',
        'runId',
        'state',
        'threadId',
        'tools',
      ].sort(),
    );
    const input = parseRunAgentInput(second);
    expect(input.protocolVersion).toBe('1.0');
    expect(input.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(input.messages[1]).toEqual({ id: 'reply-1', role: 'assistant', content: 'Done.' });
  });
});

describe('parseRunAgentInput: refused envelopes', () => {
  it.each([
    { name: 'null', value: null },
    { name: 'an array', value: [] },
    { name: 'a string', value: 'x' },
    { name: 'a number', value: 1 },
    { name: 'a boolean', value: true },
  ])('$name is not an object', ({ value }) => {
    expect(failureOf(() => parseRunAgentInput(value))).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      key: 'notAnObject',
    });
  });

  const envelopeRows: { name: string; value: unknown }[] = [
    { name: 'snake_case alias instead of a key', value: { ...body(), threadId: undefined, thread_id: 't' } },
    { name: 'missing threadId', value: { ...body(), threadId: undefined } },
    { name: 'empty threadId', value: body({ threadId: '' }) },
    { name: 'empty runId', value: body({ runId: '' }) },
    { name: 'numeric runId', value: body({ runId: 1 }) },
    { name: 'missing messages', value: { ...body(), messages: undefined } },
    { name: 'messages not an array', value: body({ messages: {} }) },
    { name: 'null message', value: body({ messages: [null] }) },
    { name: 'string message', value: body({ messages: ['hi'] }) },
    { name: 'nested array message', value: body({ messages: [[user('hi')]] }) },
    { name: 'unknown key in a message', value: withMessage(user('hi', { extra: true })) },
    { name: 'constructor key in a message', value: withMessage(user('hi', { constructor: 'x' })) },
    { name: 'unknown role', value: withMessage({ id: 'x', role: 'robot', content: 'hi' }) },
    { name: 'missing role', value: withMessage({ id: 'x', content: 'hi' }) },
    { name: 'message without id', value: withMessage({ role: 'user', content: 'hi' }) },
    { name: 'null optional field', value: withMessage(user('hi', { name: null })) },
    {
      name: 'name on a tool message',
      value: withMessage({ id: 't', role: 'tool', content: 'x', toolCallId: 'c', name: 'n' }),
    },
    { name: 'tool message without toolCallId', value: withMessage({ id: 't', role: 'tool', content: 'x' }) },
    { name: 'system without content', value: withMessage({ id: 's', role: 'system' }) },
    { name: 'developer with parts', value: withMessage({ id: 'd', role: 'developer', content: [] }) },
    { name: 'assistant with part content', value: withMessage({ id: 'a', role: 'assistant', content: [] }) },
    {
      name: 'activity with array content',
      value: withMessage({ id: 'a', role: 'activity', activityType: 'x', content: [] }),
    },
    { name: 'metadata that is an array', value: withMessage(user('hi', { metadata: [] })) },
    {
      name: 'unknown key in a tool call',
      value: withMessage({
        id: 'a',
        role: 'assistant',
        toolCalls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, extra: 1 }],
      }),
    },
    {
      name: 'tool call of another type',
      value: withMessage({
        id: 'a',
        role: 'assistant',
        toolCalls: [{ id: 'c', type: 'other', function: { name: 'f', arguments: '{}' } }],
      }),
    },
    {
      name: 'tool call function as an array',
      value: withMessage({
        id: 'a',
        role: 'assistant',
        toolCalls: [{ id: 'c', type: 'function', function: [{ name: 'f', arguments: '{}' }] }],
      }),
    },
    {
      name: 'tool call arguments as an object',
      value: withMessage({
        id: 'a',
        role: 'assistant',
        toolCalls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }],
      }),
    },
    { name: 'user content null', value: withMessage(user(null)) },
    { name: 'user content number', value: withMessage(user(1)) },
    { name: 'user content object', value: withMessage(user({ type: 'text', text: 'x' })) },
    { name: 'string inside parts', value: withMessage(user(['hi'])) },
    { name: 'null inside parts', value: withMessage(user([null])) },
    { name: 'unknown part type', value: withMessage(user([{ type: 'sticker', text: 'x' }])) },
    { name: 'unknown key in a text part', value: withMessage(user([{ type: 'text', text: 'x', extra: 1 }])) },
    { name: 'null part metadata', value: withMessage(user([{ type: 'text', text: 'x', metadata: null }])) },
    { name: 'image without source', value: withMessage(user([{ type: 'image' }])) },
    { name: 'image source as an array', value: withMessage(user([image([dataSource])])) },
    { name: 'unknown source type', value: withMessage(user([image({ type: 'ftp', value: 'x' })])) },
    { name: 'data source without mimeType', value: withMessage(user([image({ type: 'data', value: 'x' })])) },
    { name: 'unknown key in a source', value: withMessage(user([image({ ...dataSource, extra: 1 })])) },
    {
      name: 'binary part without payload',
      value: withMessage(user([{ type: 'binary', mimeType: 'image/png' }])),
    },
    {
      name: 'unknown key in a binary part',
      value: withMessage(user([{ type: 'binary', mimeType: 'image/png', data: 'AAAA', metadata: {} }])),
    },
    { name: 'tools not an array', value: body({ tools: {} }) },
    { name: 'tool without description', value: body({ tools: [{ name: 'x' }] }) },
    {
      name: 'unknown key in context',
      value: body({ context: [{ description: 'd', value: 'v', extra: 1 }] }),
    },
    { name: 'context value not a string', value: body({ context: [{ description: 'd', value: 1 }] }) },
    { name: 'parentRunId null', value: body({ parentRunId: null }) },
    { name: 'protocolVersion number', value: body({ protocolVersion: 1 }) },
    { name: 'forwardedProps null', value: body({ forwardedProps: null }) },
    { name: 'resume null', value: body({ resume: null }) },
    { name: 'resume with unknown status', value: body({ resume: [{ interruptId: 'i', status: 'done' }] }) },
    {
      name: 'resume with null payload',
      value: body({ resume: [{ interruptId: 'i', status: 'resolved', payload: null }] }),
    },
    {
      name: 'unknown key in resume',
      value: body({ resume: [{ interruptId: 'i', status: 'cancelled', extra: 1 }] }),
    },
    { name: 'threadId over 1,024 characters', value: body({ threadId: 't'.repeat(MAX_ID_LENGTH + 1) }) },
    { name: 'runId over 1,024 characters', value: body({ runId: 'r'.repeat(MAX_ID_LENGTH + 1) }) },
    { name: 'a 4 MiB runId', value: body({ runId: 'r'.repeat(4 * 1024 * 1024) }) },
    {
      name: 'parentRunId over 1,024 characters',
      value: body({ parentRunId: 'p'.repeat(MAX_ID_LENGTH + 1) }),
    },
    {
      name: 'message id over 1,024 characters',
      value: withMessage(user('hi', { id: 'm'.repeat(MAX_ID_LENGTH + 1) })),
    },
    {
      name: 'an earlier message id over 1,024 characters',
      value: body({
        messages: [{ id: 'a'.repeat(MAX_ID_LENGTH + 1), role: 'assistant', content: 'x' }, user('hi')],
      }),
    },
  ];

  const over = (bound: number) => 'x'.repeat(bound + 1);
  const toolCall = (fields: Plain = {}) => ({
    id: 'call-1',
    type: 'function',
    function: { name: 'f', arguments: '{}' },
    ...fields,
  });
  const boundRows: { name: string; value: Plain }[] = [
    {
      name: 'a tool-call id over its bound',
      value: body({
        messages: [
          { id: 'a', role: 'assistant', toolCalls: [toolCall({ id: over(STRING_BOUNDS.id) })] },
          user('hi'),
        ],
      }),
    },
    {
      name: 'a tool function name over its bound',
      value: body({
        messages: [
          {
            id: 'a',
            role: 'assistant',
            toolCalls: [toolCall({ function: { name: over(STRING_BOUNDS.text), arguments: '{}' } })],
          },
          user('hi'),
        ],
      }),
    },
    {
      name: 'a tool message toolCallId over its bound',
      value: body({
        messages: [{ id: 't', role: 'tool', content: 'r', toolCallId: over(STRING_BOUNDS.id) }, user('hi')],
      }),
    },
    {
      name: 'a message name over its bound',
      value: withMessage(user('hi', { name: over(STRING_BOUNDS.text) })),
    },
    {
      name: 'a subagentRunId over its bound',
      value: withMessage(user('hi', { subagentRunId: over(STRING_BOUNDS.id) })),
    },
    {
      name: 'an activityType over its bound',
      value: body({
        messages: [
          { id: 'a', role: 'activity', activityType: over(STRING_BOUNDS.text), content: {} },
          user('hi'),
        ],
      }),
    },
    {
      name: 'a part id over its bound',
      value: withMessage(user([{ type: 'text', text: 'hi', id: over(STRING_BOUNDS.id) }])),
    },
    {
      name: 'an image mimeType over its bound',
      value: withMessage(user([image({ ...dataSource, mimeType: over(STRING_BOUNDS.text) })])),
    },
    {
      name: 'a resume interruptId over its bound',
      value: body({ resume: [{ interruptId: over(STRING_BOUNDS.id), status: 'cancelled' }] }),
    },
    { name: 'a protocolVersion over its bound', value: body({ protocolVersion: over(STRING_BOUNDS.text) }) },
  ];

  it.each(boundRows)('$name → invalidEnvelope', ({ value }) => {
    expect(failureOf(() => parseRunAgentInput(value))).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      key: 'invalidEnvelope',
    });
  });

  it.each(envelopeRows)('$name → invalidEnvelope', ({ value }) => {
    expect(failureOf(() => parseRunAgentInput(value))).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      key: 'invalidEnvelope',
    });
  });
});

describe('parseRunAgentInput: the user message the kernel would refuse', () => {
  it.each([
    { name: 'no content parts', value: withMessage(user([])), key: 'userContentEmpty' },
    { name: 'an empty id', value: withMessage(user('hi', { id: '' })), key: 'userMessageIdEmpty' },
    {
      name: 'an empty newest user message after a valid one',
      value: body({ messages: [user('earlier'), user([], { id: 'u2' })] }),
      key: 'userContentEmpty',
    },
  ])('$name → $key', ({ value, key }) => {
    expect(failureOf(() => parseRunAgentInput(value))).toMatchObject({ code: ErrorCode.INVALID_INPUT, key });
  });

  it('checks only the newest user message, and not on a resume (resumes ignore messages)', () => {
    expect(() => parseRunAgentInput(body({ messages: [user([], { id: '' }), user('now')] }))).not.toThrow();
    expect(() => parseRunAgentInput(body({ messages: [user([])], resume: [] }))).not.toThrow();
    expect(() => parseRunAgentInput(body({ messages: [] }))).not.toThrow();
  });
});

describe('parseRunAgentInput: forwardedProps.iacCode', () => {
  const ALL_FIELDS = {
    ...IAC_CODE,
    model: 'qwen-max',
    llmApiKey: 'sk-1',
    thinking: { enabled: true, effort: 'low', budget: 1024 },
    userId: 'user-1',
    channel: 'console',
    preferredLanguage: 'pt',
    candidatePresentation: 'rich',
    runMode: 'pipeline',
    pipelineName: 'selling',
    cleanupOnly: true,
    alibabaCloud: { accessKeyId: 'AK', accessKeySecret: 'SK', securityToken: 'STS', regionId: 'cn-hangzhou' },
  };

  it.each([
    { name: 'every documented field', fields: ALL_FIELDS, expected: ALL_FIELDS },
    {
      name: 'nullable fields set to null',
      fields: {
        model: null,
        llmApiKey: null,
        thinking: null,
        userId: null,
        channel: null,
        preferredLanguage: null,
        candidatePresentation: null,
        runMode: null,
        pipelineName: null,
        alibabaCloud: null,
      },
      expected: {
        ...IAC_CODE,
        model: null,
        llmApiKey: null,
        thinking: null,
        userId: null,
        channel: null,
        preferredLanguage: null,
        candidatePresentation: null,
        runMode: null,
        pipelineName: null,
        alibabaCloud: null,
        cleanupOnly: false,
      },
    },
    {
      name: 'llmHeaders of string values, any key kept as sent',
      fields: { llmHeaders: JSON.parse('{"X-Key":"v","constructor":"c","__proto__":"p","toString":""}') },
      expected: {
        ...IAC_CODE,
        llmHeaders: JSON.parse('{"X-Key":"v","constructor":"c","__proto__":"p","toString":""}'),
        cleanupOnly: false,
      },
    },
    {
      name: 'llmHeaders empty',
      fields: { llmHeaders: {} },
      expected: { ...IAC_CODE, llmHeaders: {}, cleanupOnly: false },
    },
    {
      name: 'activeGuidance',
      fields: { activeGuidance: true, runMode: 'pipeline' },
      expected: { ...IAC_CODE, activeGuidance: true, runMode: 'pipeline', cleanupOnly: false },
    },
    {
      name: 'llmHeaders null',
      fields: { llmHeaders: null },
      expected: { ...IAC_CODE, llmHeaders: null, cleanupOnly: false },
    },
    {
      name: 'thinking.enabled defaults to false',
      fields: { thinking: { effort: null, budget: null } },
      expected: { ...IAC_CODE, thinking: { effort: null, budget: null, enabled: false }, cleanupOnly: false },
    },
    {
      name: 'alibabaCloud with some keys',
      fields: { alibabaCloud: { regionId: 'cn-beijing', securityToken: null } },
      expected: {
        ...IAC_CODE,
        alibabaCloud: { regionId: 'cn-beijing', securityToken: null },
        cleanupOnly: false,
      },
    },
    {
      name: 'rosInvocationId of 256 characters',
      fields: { rosInvocationId: 'r'.repeat(256) },
      expected: { ...IAC_CODE, rosInvocationId: 'r'.repeat(256), cleanupOnly: false },
    },
    {
      name: 'rosInvocationId of 256 astral code points',
      fields: { rosInvocationId: '😀'.repeat(256) },
      expected: { ...IAC_CODE, rosInvocationId: '😀'.repeat(256), cleanupOnly: false },
    },
  ])('accepts $name', ({ fields, expected }) => {
    expect(parseRunAgentInput(withIacCode(fields)).forwardedProps.iacCode).toStrictEqual(expected);
  });

  const TEXT_FIELDS = ['model', 'userId', 'channel', 'preferredLanguage', 'pipelineName'] as const;
  const SECRET_FIELDS = ['llmApiKey'] as const;
  const atBound: [string, Plain][] = [
    ...TEXT_FIELDS.map((field): [string, Plain] => [field, { [field]: '😀'.repeat(STRING_BOUNDS.text) }]),
    ...SECRET_FIELDS.map((field): [string, Plain] => [field, { [field]: 's'.repeat(STRING_BOUNDS.secret) }]),
    ['thinking.effort', { thinking: { enabled: true, effort: 'e'.repeat(STRING_BOUNDS.text) } }],
    [
      'alibabaCloud',
      {
        alibabaCloud: {
          accessKeyId: 'a'.repeat(STRING_BOUNDS.text),
          accessKeySecret: 's'.repeat(STRING_BOUNDS.secret),
          securityToken: 't'.repeat(STRING_BOUNDS.secret),
          regionId: 'r'.repeat(STRING_BOUNDS.text),
        },
      },
    ],
    [
      'llmHeaders',
      {
        llmHeaders: Object.fromEntries(
          Array.from({ length: MAX_LLM_HEADERS }, (_, i) => [
            `${i}`.padEnd(STRING_BOUNDS.headerName, 'h'),
            'v'.repeat(STRING_BOUNDS.secret),
          ]),
        ),
      },
    ],
  ];

  it.each(atBound)('accepts %s at its bound', (_name, fields) => {
    expect(parseRunAgentInput(withIacCode(fields)).forwardedProps.iacCode).toMatchObject(fields);
  });

  const overBound: [string, Plain][] = [
    ...TEXT_FIELDS.map((field): [string, Plain] => [field, { [field]: '😀'.repeat(STRING_BOUNDS.text + 1) }]),
    ...SECRET_FIELDS.map((field): [string, Plain] => [
      field,
      { [field]: 's'.repeat(STRING_BOUNDS.secret + 1) },
    ]),
    ['a 4 MiB userId', { userId: 'u'.repeat(4 * 1024 * 1024) }],
    ['thinking.effort', { thinking: { enabled: true, effort: 'e'.repeat(STRING_BOUNDS.text + 1) } }],
    ['alibabaCloud.accessKeyId', { alibabaCloud: { accessKeyId: 'a'.repeat(STRING_BOUNDS.text + 1) } }],
    [
      'alibabaCloud.accessKeySecret',
      { alibabaCloud: { accessKeySecret: 's'.repeat(STRING_BOUNDS.secret + 1) } },
    ],
    ['alibabaCloud.securityToken', { alibabaCloud: { securityToken: 't'.repeat(STRING_BOUNDS.secret + 1) } }],
    ['alibabaCloud.regionId', { alibabaCloud: { regionId: 'r'.repeat(STRING_BOUNDS.text + 1) } }],
    ['an llmHeaders value', { llmHeaders: { 'X-Key': 'v'.repeat(STRING_BOUNDS.secret + 1) } }],
    ['an llmHeaders name', { llmHeaders: { ['h'.repeat(STRING_BOUNDS.headerName + 1)]: 'v' } }],
    [
      'llmHeaders with too many entries',
      {
        llmHeaders: Object.fromEntries(Array.from({ length: MAX_LLM_HEADERS + 1 }, (_, i) => [`h${i}`, 'v'])),
      },
    ],
  ];

  it.each(overBound)('refuses %s over its bound → invalidForwardedProps', (_name, fields) => {
    expect(failureOf(() => parseRunAgentInput(withIacCode(fields)))).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      key: 'invalidForwardedProps',
    });
  });

  const propsRows: { name: string; value: Plain }[] = [
    { name: 'forwardedProps missing', value: { ...body(), forwardedProps: undefined } },
    { name: 'forwardedProps empty (what HttpAgent sends by default)', value: body({ forwardedProps: {} }) },
    { name: 'forwardedProps a string', value: body({ forwardedProps: 'iacCode' }) },
    { name: 'a key next to iacCode', value: body({ forwardedProps: { iacCode: IAC_CODE, other: 1 } }) },
    { name: 'iacCode null', value: body({ forwardedProps: { iacCode: null } }) },
    { name: 'iacCode an array', value: body({ forwardedProps: { iacCode: [IAC_CODE] } }) },
    { name: 'unknown iacCode key', value: withIacCode({ extra: 1 }) },
    { name: 'iacCode key naming an inherited method', value: withIacCode({ valueOf: 1 }) },
    { name: 'llmHeaders a string', value: withIacCode({ llmHeaders: 'x-a: b' }) },
    { name: 'llmHeaders an array', value: withIacCode({ llmHeaders: [['x-a', 'b']] }) },
    { name: 'llmHeaders with a number value', value: withIacCode({ llmHeaders: { 'x-a': 1 } }) },
    { name: 'llmHeaders with a null value', value: withIacCode({ llmHeaders: { 'x-a': null } }) },
    {
      name: 'llmHeaders with a non-string __proto__ value',
      value: withIacCode({ llmHeaders: JSON.parse('{"__proto__": {"x": 1}}') }),
    },
    { name: 'activeGuidance "true"', value: withIacCode({ activeGuidance: 'true' }) },
    { name: 'activeGuidance null', value: withIacCode({ activeGuidance: null }) },
    { name: 'Gen B guidanceId', value: withIacCode({ guidanceId: 'g' }) },
    { name: 'Gen B inputDigest', value: withIacCode({ inputDigest: 'd' }) },
    { name: 'Gen B executionFence', value: withIacCode({ executionFence: null }) },
    { name: 'schemaVersion "1"', value: withIacCode({ schemaVersion: '1' }) },
    { name: 'schemaVersion 2', value: withIacCode({ schemaVersion: 2 }) },
    { name: 'schemaVersion true', value: withIacCode({ schemaVersion: true }) },
    { name: 'schemaVersion missing', value: withIacCode({ schemaVersion: undefined }) },
    { name: 'rosInvocationId missing', value: withIacCode({ rosInvocationId: undefined }) },
    { name: 'rosInvocationId empty', value: withIacCode({ rosInvocationId: '' }) },
    { name: 'rosInvocationId of 257 characters', value: withIacCode({ rosInvocationId: 'r'.repeat(257) }) },
    { name: 'rosInvocationId a number', value: withIacCode({ rosInvocationId: 1 }) },
    { name: 'cwd missing', value: withIacCode({ cwd: undefined }) },
    { name: 'cwd null', value: withIacCode({ cwd: null }) },
    { name: 'cleanupOnly "false"', value: withIacCode({ cleanupOnly: 'false' }) },
    { name: 'cleanupOnly null', value: withIacCode({ cleanupOnly: null }) },
    { name: 'cleanupOnly 0', value: withIacCode({ cleanupOnly: 0 }) },
    { name: 'model a number', value: withIacCode({ model: 1 }) },
    { name: 'thinking with an unknown key', value: withIacCode({ thinking: { enabled: true, level: 1 } }) },
    { name: 'thinking.enabled "true"', value: withIacCode({ thinking: { enabled: 'true' } }) },
    { name: 'thinking.enabled null', value: withIacCode({ thinking: { enabled: null } }) },
    { name: 'thinking.budget 0', value: withIacCode({ thinking: { budget: 0 } }) },
    { name: 'thinking.budget 1.5', value: withIacCode({ thinking: { budget: 1.5 } }) },
    { name: 'thinking.budget "1024"', value: withIacCode({ thinking: { budget: '1024' } }) },
    { name: 'thinking an array', value: withIacCode({ thinking: [{ enabled: true }] }) },
    { name: 'candidatePresentation unknown', value: withIacCode({ candidatePresentation: 'fancy' }) },
    { name: 'runMode unknown', value: withIacCode({ runMode: 'batch' }) },
    {
      name: 'alibabaCloud with an unknown key',
      value: withIacCode({ alibabaCloud: { accessKeyId: 'a', region: 'x' } }),
    },
    { name: 'alibabaCloud key a number', value: withIacCode({ alibabaCloud: { accessKeyId: 1 } }) },
    { name: 'non-empty tools', value: body({ tools: [{ name: 'search', description: 'web search' }] }) },
  ];

  it.each(propsRows)('$name → invalidForwardedProps', ({ value }) => {
    expect(failureOf(() => parseRunAgentInput(value))).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      key: 'invalidForwardedProps',
    });
  });

  it.each([
    { name: 'by default (strict mode: the original text)', options: {}, key: 'invalidForwardedProps' },
    {
      name: 'with the generic-clients message',
      options: { toolsRefusalKey: 'toolsUnsupported' } as const,
      key: 'toolsUnsupported',
    },
  ])('refuses client tools $name', ({ options, key }) => {
    const value = body({ tools: [{ name: 'search', description: 'web search' }] });
    expect(failureOf(() => parseRunAgentInput(value, options))).toMatchObject({
      code: ErrorCode.INVALID_INPUT,
      key,
    });
  });

  it('never puts a submitted value in the error', () => {
    const failure = failureOf(() =>
      parseRunAgentInput(withIacCode({ llmApiKey: 'sk-secret-value', extra: 'x' })),
    );
    expect(failure.message).toBe('INVALID_INPUT: invalidForwardedProps');
  });
});

describe('preferredLanguageOf', () => {
  it.each([
    { name: 'set', value: withIacCode({ preferredLanguage: 'zh-CN' }), expected: 'zh-CN' },
    {
      name: 'set on an otherwise invalid body',
      value: { forwardedProps: { iacCode: { preferredLanguage: 'ja' } } },
      expected: 'ja',
    },
    { name: 'not a string', value: withIacCode({ preferredLanguage: 7 }), expected: undefined },
    { name: 'absent', value: body(), expected: undefined },
    { name: 'iacCode not an object', value: body({ forwardedProps: { iacCode: 'x' } }), expected: undefined },
    { name: 'forwardedProps absent', value: { threadId: 't' }, expected: undefined },
    { name: 'body not an object', value: 'x', expected: undefined },
    { name: 'body null', value: null, expected: undefined },
  ])('$name → $expected', ({ value, expected }) => {
    expect(preferredLanguageOf(value)).toBe(expected);
  });
});
