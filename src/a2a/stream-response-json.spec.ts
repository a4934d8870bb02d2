import { StreamResponse } from '@a2a-js/sdk';
import fc from 'fast-check';
import {
  artifactFrame,
  endOfTurnFrames,
  kernelSessionId,
  statusFrame,
  textDeltaFrame,
  thinkingFrame,
  toolFrame,
  usageFrame,
} from '../demo-kernel/kernel-frames';
import { isCanonicalStreamResponse, toStreamResponseJson } from './stream-response-json';

/** The SDK's own reading of one stream item: the reference. */
function sdkRoundTrip(result: unknown): unknown {
  return StreamResponse.toJSON(StreamResponse.fromJSON(result));
}

/** Both readings of `result` (each given its own copy): the same value, or both throw. */
function expectSameAsSdk(result: unknown): void {
  const reference = attempt(() => sdkRoundTrip(structuredClone(result)));
  const ours = attempt(() => toStreamResponseJson(structuredClone(result)));
  expect(ours).toStrictEqual(reference);
  // Key order too: the frame may be written out as it is (persisted snapshots, RAW events).
  expect(JSON.stringify(ours)).toBe(JSON.stringify(reference));
}

function attempt(read: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: read() };
  } catch (error) {
    return { error: String(error) };
  }
}

const ids = { taskId: 'task-1', contextId: 'ctx-1', sessionId: kernelSessionId('ctx-1') };

/** The kernel's frames (src/demo-kernel/kernel-frames.ts builds them as the kernel writes them). */
const KERNEL_FRAMES: ReadonlyArray<readonly [string, unknown]> = [
  [
    'task snapshot',
    {
      task: {
        id: 'task-1',
        contextId: 'ctx-1',
        status: { state: 'TASK_STATE_INPUT_REQUIRED', timestamp: '2026-12-01T10:00:00.123456Z' },
        artifacts: [{ artifactId: 'a-1', name: 'plan', parts: [{ text: 'x', mediaType: 'text/markdown' }] }],
        history: [
          {
            messageId: 'm-1',
            contextId: 'ctx-1',
            taskId: 'task-1',
            role: 'ROLE_USER',
            parts: [{ text: 'hi' }],
          },
          { messageId: 'task-1-message', role: 'ROLE_AGENT', parts: [{ text: 'hello' }] },
        ],
        metadata: { iac_code: { iacCodeSessionId: ids.sessionId } },
      },
    },
  ],
  ['submitted', statusFrame(ids, 'TASK_STATE_SUBMITTED')],
  ['text delta', textDeltaFrame(ids, 'token ')],
  ['thinking', thinkingFrame(ids, 'hmm')],
  [
    'tool',
    toolFrame(ids, { status: 'started', toolUseId: 'tu-1', name: 'Bash', toolInput: { command: 'ls' } }),
  ],
  [
    'usage',
    usageFrame(ids, {
      provider: 'p',
      model: 'm',
      inputTokens: 1,
      outputTokens: 2,
      totalTokens: 3,
      cachedInputTokens: 0,
    }),
  ],
  [
    'artifact update',
    artifactFrame(ids, { artifactId: 'a-1', name: 'plan', text: '# Plan', mediaType: 'text/markdown' }),
  ],
  ['end of turn: final repeat', endOfTurnFrames(ids, 'the answer')[0]],
  ['end of turn: input required', endOfTurnFrames(ids, 'the answer')[1]],
  [
    'a permission on INPUT_REQUIRED with a data part',
    statusFrame(ids, 'TASK_STATE_INPUT_REQUIRED', {
      text: 'Bash Allow once?',
      iacCode: { input: { inputId: 'in-1', required: true, kind: 'permission' } },
    }),
  ],
  [
    'a user message with a data part',
    {
      message: {
        messageId: 'm-2',
        role: 'ROLE_USER',
        parts: [{ data: { decision: 'allow' }, mediaType: 'application/json' }],
      },
    },
  ],
];

describe('toStreamResponseJson: the SDK codec round trip, without it when the item is already in its form', () => {
  it.each(KERNEL_FRAMES)(
    'a kernel frame (%s) is handed on as parsed, equal to the SDK reading',
    (_name, frame) => {
      expect(isCanonicalStreamResponse(frame)).toBe(true);
      expect(toStreamResponseJson(frame)).toBe(frame);
      expectSameAsSdk(frame);
    },
  );

  it.each<readonly [string, unknown]>([
    ['snake_case alias', { status_update: { task_id: 't', status: { state: 'TASK_STATE_WORKING' } } }],
    ['unknown key', { statusUpdate: { taskId: 't', final: true, status: { state: 'TASK_STATE_WORKING' } } }],
    ['empty string', { statusUpdate: { taskId: '', contextId: 'c' } }],
    ['numeric enum', { statusUpdate: { taskId: 't', status: { state: 2 } } }],
    ['unspecified enum', { task: { id: 't', status: { state: 'TASK_STATE_UNSPECIFIED' } } }],
    ['unknown enum name', { task: { id: 't', status: { state: 'TASK_STATE_SLEEPING' } } }],
    ['false bool', { artifactUpdate: { taskId: 't', append: false, lastChunk: true } }],
    ['empty array', { task: { id: 't', history: [] } }],
    ['keys out of order', { statusUpdate: { contextId: 'c', taskId: 't' } }],
    ['two payloads', { task: { id: 't' }, message: { messageId: 'm' } }],
    ['two contents in one part', { message: { parts: [{ text: 'a', data: { b: 1 } }] } }],
    ['non-canonical base64', { message: { parts: [{ raw: 'aGk' }] } }],
    ['a number id', { task: { id: 7 } }],
    ['an array body', { task: [] }],
    ['a string result', 'task'],
  ])('%s: the SDK reading, through the SDK', (_name, result) => {
    expect(isCanonicalStreamResponse(result)).toBe(false);
    expectSameAsSdk(result);
  });

  it('a null result throws as the SDK does', () => {
    expect(() => toStreamResponseJson(null)).toThrow();
    expectSameAsSdk(null);
  });

  it('any generated item reads as the SDK reads it', () => {
    fc.assert(
      fc.property(streamResponseArbitrary(), (result) => expectSameAsSdk(result)),
      { numRuns: 500 },
    );
  });
});

/**
 * Items shaped like StreamResponses whose fields are mostly valid, sometimes a default, a wrong type or
 * missing, sometimes with an extra key or in reverse key order: the cases where the two paths could part.
 */
function streamResponseArbitrary(): fc.Arbitrary<unknown> {
  const junk = fc.oneof(
    fc.constant(null),
    fc.constant(''),
    fc.integer(),
    fc.boolean(),
    fc.constant([]),
    fc.constant({}),
    fc.string({ maxLength: 4 }),
  );
  const maybe = (valid: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: junk });
  const text = fc.string({ maxLength: 6 });
  const object = (fields: Record<string, fc.Arbitrary<unknown>>) =>
    fc
      .tuple(
        fc.record(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, maybe(value)])), {
          requiredKeys: [],
        }),
        fc.constantFrom('as-is', 'as-is', 'as-is', 'reversed', 'extra-key', 'snake-alias'),
      )
      .map(([record, variant]) => reshape(record, variant));
  const list = (element: fc.Arbitrary<unknown>) => fc.array(element, { maxLength: 3 });
  const metadata = fc.oneof(fc.dictionary(text, fc.jsonValue({ maxDepth: 1 })), fc.constant([1]));
  const part = object({
    text,
    raw: fc.oneof(fc.base64String({ maxLength: 8 }), text),
    url: text,
    data: fc.jsonValue({ maxDepth: 1 }),
    metadata,
    filename: text,
    mediaType: fc.constantFrom('text/plain', 'application/json', ''),
  });
  const message = object({
    messageId: text,
    contextId: text,
    taskId: text,
    role: fc.constantFrom('ROLE_USER', 'ROLE_AGENT', 'ROLE_UNSPECIFIED', 'UNRECOGNIZED', 'user', 1),
    parts: list(part),
    metadata,
    extensions: list(text),
    referenceTaskIds: list(fc.oneof(text, fc.integer())),
  });
  const status = object({
    state: fc.constantFrom(
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_COMPLETED',
      'TASK_STATE_UNSPECIFIED',
      'working',
      3,
    ),
    message,
    timestamp: fc.oneof(text, fc.constant('2026-12-01T10:00:00.123456Z')),
  });
  const artifact = object({
    artifactId: text,
    name: text,
    description: text,
    parts: list(part),
    metadata,
    extensions: list(text),
  });
  return fc.oneof(
    object({
      task: object({
        id: text,
        contextId: text,
        status,
        artifacts: list(artifact),
        history: list(message),
        metadata,
      }),
    }),
    object({ message }),
    object({ statusUpdate: object({ taskId: text, contextId: text, status, metadata }) }),
    object({
      artifactUpdate: object({
        taskId: text,
        contextId: text,
        artifact,
        append: fc.boolean(),
        lastChunk: fc.boolean(),
        metadata,
      }),
    }),
  );
}

function reshape(record: Record<string, unknown>, variant: string): Record<string, unknown> {
  const entries = Object.entries(record);
  if (variant === 'reversed') return Object.fromEntries(entries.reverse());
  if (variant === 'extra-key') return { ...record, kind: 'status-update' };
  if (variant === 'snake-alias' && entries.length > 0) {
    const [key, value] = entries[0];
    const snake = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    return Object.fromEntries([[snake, value], ...entries.slice(1)]);
  }
  return record;
}
