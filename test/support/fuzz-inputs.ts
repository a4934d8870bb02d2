import fc from 'fast-check';
import { ErrorCode, HTTP_STATUS_BY_CODE } from '../../src/common/error-code';

/**
 * Arbitraries for every input surface of the gateway (RunAgentInput and its parts, resume arrays, cancel
 * bodies, ids, cwd), shared by the fuzzing spec and the memory script. Each one mixes plausible values with
 * hostile ones: wrong types, empty and huge strings, unicode, path tricks, ids past the caps.
 */

/** The codes a refusal before the stream may carry for a bad request; 5xx never (the input is the client's). */
export const PRE_STREAM_CODES: ReadonlySet<string> = new Set([
  ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  ErrorCode.REQUEST_TOO_LARGE,
  ErrorCode.INVALID_JSON,
  ErrorCode.INVALID_INPUT,
  ErrorCode.DUPLICATE_RUN_ID,
  ErrorCode.RUN_ID_CONFLICT,
  ErrorCode.THREAD_BUSY,
  ErrorCode.THREAD_BINDING_CONFLICT,
  ErrorCode.RESUME_REQUIRED,
  ErrorCode.EXECUTION_LOST,
  ErrorCode.EXECUTION_NOT_FOUND,
  // Retryable: the body budget of the process was spent by the other clients' bodies in flight.
  ErrorCode.SERVER_BUSY,
]);

/**
 * The refusals the thread's state decides (docs/behaviour/state.md#admission steps 2–7): they come after the
 * request's workspace was resolved, and resolving it creates it when missing (docs/behaviour/run-input.md#cwd).
 */
export const ADMISSION_CODES: ReadonlySet<string> = new Set([
  ErrorCode.STATE_UNAVAILABLE,
  ErrorCode.EXECUTION_LOST,
  ErrorCode.DUPLICATE_RUN_ID,
  ErrorCode.RUN_ID_CONFLICT,
  ErrorCode.THREAD_BUSY,
  ErrorCode.THREAD_BINDING_CONFLICT,
  ErrorCode.RESUME_REQUIRED,
]);

/** The codes a `RUN_ERROR` inside a stream may carry. */
export const IN_STREAM_CODES: ReadonlySet<string> = new Set([
  ErrorCode.INVALID_INPUT,
  ErrorCode.INCOMPLETE_RESUME,
  ErrorCode.UNKNOWN_INTERRUPT,
  ErrorCode.RESUME_PAYLOAD_INVALID,
  ErrorCode.RESUME_ALREADY_APPLIED,
  ErrorCode.EXECUTION_LOST,
  ErrorCode.EXECUTION_EXPIRED,
  ErrorCode.A2A_EXECUTION_FAILED,
  ErrorCode.CANCELLED,
]);

/** The status the error table gives a code. */
export function statusOfCode(code: string): number | undefined {
  return (HTTP_STATUS_BY_CODE as Record<string, number>)[code];
}

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }), // lone surrogates included
  fc.constantFrom('', ' ', '.', '..', '../x', 'CON', 'nul.json', 'a\0b', '\u202e', '😀'),
);

/** Thread and run ids: valid ones, long readable ones (the file-stem edge), ids past the 1,024 cap, non-strings. */
export const idArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,40}$/) },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 1100 }).map((length) => 'a'.repeat(length)) },
  { weight: 1, arbitrary: fc.integer({ min: 1020, max: 1030 }).map((length) => 'Ü'.repeat(length)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
);

/** Workspace paths under `root`: dot segments, `~`, `$VAR`, NUL, very deep and very long paths, and non-paths. */
export function cwdArbitrary(root: string): fc.Arbitrary<unknown> {
  const segment = fc.oneof(
    fc.stringMatching(/^[a-z]{1,8}$/),
    fc.constantFrom('.', '..', '', '~', '$HOME', '${HOME}', 'a b', 'x\0y', '..%2f', '😀'),
  );
  const tail = fc.array(segment, { maxLength: 12 }).map((parts) => parts.join('/'));
  return fc.oneof(
    { weight: 5, arbitrary: tail.map((path) => `${root}/${path}`) },
    { weight: 1, arbitrary: fc.integer({ min: 250, max: 3000 }).map((n) => `${root}/${'d/'.repeat(n)}`) },
    { weight: 1, arbitrary: fc.integer({ min: 4000, max: 9000 }).map((n) => `${root}/${'n'.repeat(n)}`) },
    { weight: 1, arbitrary: fc.constantFrom('/', '/etc', '~', 'relative/path', `${root}/../escape`) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
  );
}

const contentPart = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string() }),
  fc.record({
    type: fc.constant('image'),
    source: fc.oneof(
      fc.record({
        type: fc.constant('data'),
        value: fc.base64String({ maxLength: 64 }),
        mimeType: fc.string(),
      }),
      fc.record({ type: fc.constant('url'), value: fc.webUrl() }),
    ),
  }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** A message list; user text starts with a word no kernel script reacts to, so accepted runs stay short. */
const messagesArbitrary = fc.array(
  fc.record(
    {
      id: idArbitrary,
      role: fc.constantFrom(
        'user',
        'assistant',
        'system',
        'developer',
        'tool',
        'reasoning',
        'activity',
        'robot',
      ),
      content: fc.oneof(
        fc.string().map((text) => `fuzz ${text}`),
        fc.array(contentPart, { maxLength: 3 }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      toolCallId: fc.string({ maxLength: 8 }),
    },
    { requiredKeys: ['id', 'role', 'content'] },
  ),
  { maxLength: 3 },
);

/** Resume arrays: the right shape with any ids and payloads, wrong shapes, and non-arrays. */
export const resumeArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.array(
    fc.record(
      {
        interruptId: hostileString,
        status: fc.constantFrom('resolved', 'cancelled', 'approved', ''),
        payload: fc.jsonValue({ maxDepth: 2 }),
        metadata: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ['interruptId', 'status'] },
    ),
    { maxLength: 3 },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

const validId = fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,30}$/);

/**
 * RunAgentInput bodies as JSON values: a valid envelope (often accepted: the run then really happens) with
 * zero to three hostile changes — a field of the envelope or of `iacCode` replaced by a hostile value, most
 * often an id or the cwd — and now and then arbitrary JSON instead.
 */
export function runBodyArbitrary(root: string): fc.Arbitrary<unknown> {
  const base = fc.record({
    threadId: validId,
    runId: validId,
    messages: fc.constant([{ id: 'message-1', role: 'user', content: 'fuzz hello' }]),
    forwardedProps: fc.constant({
      iacCode: { schemaVersion: 1, rosInvocationId: 'invocation-1', cwd: root },
    }),
  });
  const envelopeChange = fc.oneof(
    fc.tuple(fc.constantFrom('threadId', 'runId', 'parentRunId'), idArbitrary),
    fc.tuple(fc.constant('messages'), messagesArbitrary),
    fc.tuple(fc.constant('resume'), resumeArbitrary),
    fc.tuple(fc.constantFrom('tools', 'state', 'context', 'unknownKey'), fc.jsonValue({ maxDepth: 1 })),
    fc.tuple(fc.constant('forwardedProps'), fc.jsonValue({ maxDepth: 2 })),
  );
  const iacCodeChange = fc.oneof(
    fc.tuple(fc.constant('cwd'), cwdArbitrary(root)),
    fc.tuple(fc.constant('rosInvocationId'), idArbitrary),
    fc.tuple(
      fc.constantFrom('schemaVersion', 'runMode', 'thinking', 'preferredLanguage', 'userId', 'unknownKey'),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  );
  const envelope = fc
    .tuple(base, fc.array(envelopeChange, { maxLength: 2 }), fc.array(iacCodeChange, { maxLength: 2 }))
    .map(([body, changes, iacCodeChanges]) => {
      const iacCode: Record<string, unknown> = {
        ...body.forwardedProps.iacCode,
        ...Object.fromEntries(iacCodeChanges),
      };
      return { ...body, forwardedProps: { iacCode }, ...Object.fromEntries(changes) };
    });
  return fc.oneof(
    { weight: 8, arbitrary: envelope },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/** A request as sent on the wire: usually the JSON of a body, sometimes bytes that are not JSON or another media type. */
export function rawRunRequestArbitrary(root: string): fc.Arbitrary<{ body: string; contentType: string }> {
  return fc.oneof(
    {
      weight: 9,
      arbitrary: runBodyArbitrary(root).map((body) => ({
        body: JSON.stringify(body) ?? 'null',
        contentType: 'application/json',
      })),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        body: fc.string({ unit: 'binary', maxLength: 200 }),
        contentType: fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', ''),
      }),
    },
  );
}

/** Cancel bodies: the right keys with hostile values, and arbitrary JSON. */
export const cancelBodyArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    { threadId: idArbitrary, rosInvocationId: idArbitrary, extra: fc.jsonValue({ maxDepth: 1 }) },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
