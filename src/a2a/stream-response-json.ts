import { StreamResponse } from '@a2a-js/sdk';
import type { A2aFrame } from '../wire/a2a-wire';

/**
 * One stream item as the gateway hands it on: exactly what the SDK's codec makes of it
 * (`StreamResponse.toJSON(StreamResponse.fromJSON(result))`), without building it when the kernel
 * already sent that form.
 *
 * The round trip drops unknown keys, empty strings, `false` and empty arrays, spells enums by name,
 * renames snake_case aliases and orders keys as the proto declares them. A kernel's compact proto-JSON is
 * already in that form, so almost every frame passes the read-only check below and is handed on as
 * parsed; anything else (an unknown key, a default value, a number where a string belongs) takes the
 * SDK's own round trip, so the result is the same either way (src/a2a/stream-response-json.spec.ts
 * compares both over generated frames).
 */
export function toStreamResponseJson(result: unknown): A2aFrame {
  if (isCanonicalStreamResponse(result)) return result;
  return StreamResponse.toJSON(StreamResponse.fromJSON(result)) as A2aFrame;
}

type Check = (value: unknown) => boolean;

/** Builds the check of one proto message: known keys only, each valid, in declaration order. */
function message(fields: ReadonlyArray<readonly [string, Check]>, oneOf: readonly string[] = []): Check {
  const rank = new Map(fields.map(([key], index) => [key, index]));
  const checks = fields.map(([, check]) => check);
  const exclusive = new Set(oneOf.map((key) => rank.get(key)));
  return (value) => {
    if (!isPlainObject(value)) return false;
    let last = -1;
    let oneOfSeen = false;
    for (const key in value) {
      const index = rank.get(key);
      if (index === undefined || index <= last || !checks[index](value[key])) return false;
      if (exclusive.has(index)) {
        if (oneOfSeen) return false;
        oneOfSeen = true;
      }
      last = index;
    }
    return true;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The codec keeps a non-empty string field and drops an empty one.
const nonEmptyString: Check = (value) => typeof value === 'string' && value !== '';
// A oneof string (`text`, `url`) and `timestamp` are kept even when empty.
const anyString: Check = (value) => typeof value === 'string';
// `metadata` (a Struct) is kept by reference when it is any object, arrays included.
const struct: Check = (value) => typeof value === 'object' && value !== null;
// A bool is kept only when true.
const isTrue: Check = (value) => value === true;
// `data` (a Value) is kept by reference when set.
const anyValue: Check = (value) => value !== null && value !== undefined;
// `raw` (bytes) is re-encoded as standard base64.
const base64: Check = (value) =>
  typeof value === 'string' && Buffer.from(value, 'base64').toString('base64') === value;

function nonEmptyArrayOf(element: Check): Check {
  return (value) => Array.isArray(value) && value.length > 0 && value.every(element);
}

function oneOfStrings(names: readonly string[]): Check {
  const allowed = new Set(names);
  return (value) => typeof value === 'string' && allowed.has(value);
}

// The value 0 (`*_UNSPECIFIED`) is dropped and an unknown name becomes "UNRECOGNIZED": neither is kept.
const taskState = oneOfStrings([
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
]);
const role = oneOfStrings(['ROLE_USER', 'ROLE_AGENT']);
const strings = nonEmptyArrayOf(anyString);

// Fields in the declaration order of the A2A 1.0 proto, which is the order the codec writes them in.
const part = message(
  [
    ['text', anyString],
    ['raw', base64],
    ['url', anyString],
    ['data', anyValue],
    ['metadata', struct],
    ['filename', nonEmptyString],
    ['mediaType', nonEmptyString],
  ],
  ['text', 'raw', 'url', 'data'],
);
const parts = nonEmptyArrayOf(part);
const messageBody = message([
  ['messageId', nonEmptyString],
  ['contextId', nonEmptyString],
  ['taskId', nonEmptyString],
  ['role', role],
  ['parts', parts],
  ['metadata', struct],
  ['extensions', strings],
  ['referenceTaskIds', strings],
]);
const taskStatus = message([
  ['state', taskState],
  ['message', messageBody],
  ['timestamp', anyString],
]);
const artifact = message([
  ['artifactId', nonEmptyString],
  ['name', nonEmptyString],
  ['description', nonEmptyString],
  ['parts', parts],
  ['metadata', struct],
  ['extensions', strings],
]);
const task = message([
  ['id', nonEmptyString],
  ['contextId', nonEmptyString],
  ['status', taskStatus],
  ['artifacts', nonEmptyArrayOf(artifact)],
  ['history', nonEmptyArrayOf(messageBody)],
  ['metadata', struct],
]);
const statusUpdate = message([
  ['taskId', nonEmptyString],
  ['contextId', nonEmptyString],
  ['status', taskStatus],
  ['metadata', struct],
]);
const artifactUpdate = message([
  ['taskId', nonEmptyString],
  ['contextId', nonEmptyString],
  ['artifact', artifact],
  ['append', isTrue],
  ['lastChunk', isTrue],
  ['metadata', struct],
]);
const streamResponse = message(
  [
    ['task', task],
    ['message', messageBody],
    ['statusUpdate', statusUpdate],
    ['artifactUpdate', artifactUpdate],
  ],
  ['task', 'message', 'statusUpdate', 'artifactUpdate'],
);

/** Whether the SDK's round trip would give back `value` unchanged, key order included. */
export function isCanonicalStreamResponse(value: unknown): value is A2aFrame {
  return streamResponse(value);
}
