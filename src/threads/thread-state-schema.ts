import Ajv from 'ajv';
import { STRING_BOUNDS } from '../common/string-bounds';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';

type Schema = Record<string, unknown>;

/** The AgentCore session id header is taken only up to this length (docs/behaviour/bounds.md). */
const SESSION_ID_MAX = 256;
/** `cwd` is bounded to 4,096 UTF-8 bytes, so to at most as many code points. */
const CWD_MAX = 4096;
/** An ISO-8601 timestamp, generously. */
const TIMESTAMP_MAX = 64;

const bounded = (maxLength: number): Schema => ({ type: 'string', maxLength });
const nullable = (maxLength: number): Schema => ({ type: ['string', 'null'], maxLength });
const id = bounded(STRING_BOUNDS.id);
const boundedJson: Schema = { $ref: '#/$defs/boundedJson' };

/**
 * A record whose keys are ids, each value as given: the shape of `pending`, `runDigests` and the
 * extra keys a loaded file may carry.
 */
const recordOf = (value: Schema): Schema => ({
  type: 'object',
  propertyNames: id,
  additionalProperties: value,
});

/** A known object: its fields as listed, any other key (kept from a loaded file) bounded JSON. */
const objectOf = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
  propertyNames: id,
  additionalProperties: boundedJson,
});

/**
 * The stored thread document (docs/behaviour/state.md#the-document) with a bound on every string it holds
 * (docs/behaviour/bounds.md). What a client sends is refused with 400 before this is reached; what the kernel
 * sends (task ids, an interrupt's prompt and options) is bounded here, at the one place a state is written,
 * so no upstream can grow a state file or the thread cache without limit.
 */
export const THREAD_STATE_SCHEMA: Schema = {
  $defs: {
    boundedJson: {
      anyOf: [
        bounded(STRING_BOUNDS.storedText),
        { type: ['number', 'boolean', 'null'] },
        { type: 'array', items: boundedJson },
        recordOf(boundedJson),
      ],
    },
  },
  ...objectOf(
    {
      schemaVersion: { const: 1 },
      threadId: id,
      contextId: id,
      cwd: bounded(CWD_MAX),
      userId: nullable(STRING_BOUNDS.text),
      iacCodeSessionId: nullable(STRING_BOUNDS.id),
      agentCoreSessionId: nullable(SESSION_ID_MAX),
      principal: nullable(STRING_BOUNDS.id),
      execution: objectOf(
        {
          executionId: id,
          rosInvocationId: bounded(STRING_BOUNDS.rosInvocationId),
          taskId: nullable(STRING_BOUNDS.id),
          lastTaskId: nullable(STRING_BOUNDS.id),
          pipelineSequence: { type: 'integer', minimum: 0 },
          pipelineOpenSteps: { type: 'array', items: id },
          textSnapshotDigests: { type: 'array', items: bounded(64) },
          pending: recordOf(
            objectOf(
              {
                value: objectOf({ inputId: id }, ['inputId']),
                sideband: { type: 'boolean' },
                expiresAt: bounded(TIMESTAMP_MAX),
              },
              ['value'],
            ),
          ),
          interruptedRunId: id,
          endReason: bounded(STRING_BOUNDS.text),
        },
        ['executionId', 'rosInvocationId', 'pending'],
      ),
      runDigests: recordOf(bounded(STRING_BOUNDS.text)),
      appliedResumeDigests: {
        type: 'array',
        items: objectOf({ executionId: id, interruptId: id, digest: bounded(STRING_BOUNDS.text) }, [
          'executionId',
          'interruptId',
          'digest',
        ]),
      },
      terminalExecutionIds: { type: 'array', items: id },
    },
    ['schemaVersion', 'threadId', 'contextId', 'cwd', 'execution'],
  ),
};

const isStorable = new Ajv({ allowUnionTypes: true }).compile(THREAD_STATE_SCHEMA);

/**
 * Refuses a state with a string over its bound before it is written: the write fails (the run ends with
 * STATE_PERSISTENCE_FAILED, an admission with STATE_UNAVAILABLE) instead of storing it.
 */
export function assertStorable(state: unknown): void {
  if (!isStorable(state)) throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
}
