import type { A2aFrame } from './a2a-wire';
import { compactJson } from './compact-json';
import { isWireObject, nonEmptyString, type WireObject } from './wire-value';

export type FrameKind = 'task' | 'statusUpdate' | 'artifactUpdate' | 'message' | 'unknown';

/** What the mapper and the run loop read from one A2A frame (docs/behaviour/events.md#unwrapping-frames). */
export interface UnwrappedFrame {
  readonly kind: FrameKind;
  /** The task / status update / artifact update / message object itself. */
  readonly body: WireObject;
  readonly taskId?: string;
  readonly contextId?: string;
  /** `status.state` normalised: `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
  readonly state?: string;
  /** `metadata.iac_code` of the body. */
  readonly iacCode?: WireObject;
  readonly sessionId?: string;
  /** `iac_code.input` then `pendingPermissions[]`, only `required === true`, deduped by `inputId`. */
  readonly requiredInputs: WireObject[];
  /** Input ids that are concurrent Pipeline waits (sideband permissions), for the interrupt logic (docs/behaviour/events.md#unwrapping-frames, docs/behaviour/interrupts.md). */
  readonly sidebandInputIds: string[];
}

// The order matters: the original takes the first key found in this order (docs/behaviour/events.md#unwrapping-frames).
const NESTED_KINDS = ['task', 'statusUpdate', 'artifactUpdate', 'message'] as const;

// A2A 0.3 bodies name their kind; a tolerant reader accepts them (`kind: "status-update"`).
const LEGACY_KINDS: Record<string, FrameKind> = {
  task: 'task',
  'status-update': 'statusUpdate',
  'artifact-update': 'artifactUpdate',
  message: 'message',
};

/**
 * Unwraps one A2A stream item. Accepts the StreamResponse object the gateway yields, a whole JSON-RPC
 * envelope (`{result: …}`), and a bare task (GetTask/CancelTask answers) — docs/behaviour/events.md#unwrapping-frames.
 */
export function unwrapFrame(frame: A2aFrame): UnwrappedFrame {
  const container = isWireObject(frame.result) ? frame.result : frame;
  let kind: FrameKind | undefined;
  let body = container;
  for (const nestedKind of NESTED_KINDS) {
    const nested = container[nestedKind];
    if (isWireObject(nested)) {
      kind = nestedKind;
      body = nested;
      break;
    }
  }
  kind ??= inferKind(container);
  const iacCode =
    isWireObject(body.metadata) && isWireObject(body.metadata.iac_code) ? body.metadata.iac_code : undefined;
  const status = isWireObject(body.status) ? body.status : undefined;
  // Built by assignment, not spreads: this runs for every frame of every run (see docs/benchmarks.md).
  const unwrapped: Mutable<UnwrappedFrame> = {
    kind,
    body,
    requiredInputs: iacCode ? requiredInputsOf(iacCode) : NO_INPUTS,
    sidebandInputIds: iacCode ? sidebandInputIdsOf(iacCode) : NO_IDS,
  };
  const taskId = nonEmptyString(body.taskId) ?? (kind === 'message' ? undefined : nonEmptyString(body.id));
  if (taskId !== undefined) unwrapped.taskId = taskId;
  const contextId = nonEmptyString(body.contextId);
  if (contextId !== undefined) unwrapped.contextId = contextId;
  const state = normaliseState(status?.state);
  if (state !== undefined) unwrapped.state = state;
  if (iacCode) {
    unwrapped.iacCode = iacCode;
    const sessionId = sessionIdOf(iacCode);
    if (sessionId !== undefined) unwrapped.sessionId = sessionId;
  }
  return unwrapped;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Shared empty results for the common frame without inputs (never mutated by readers). */
const NO_INPUTS: WireObject[] = [];
const NO_IDS: string[] = [];

/** The wire spells a handful of states; their normal forms are computed once. */
const NORMALISED_STATES = new Map<string, string | undefined>();

/** `TASK_STATE_INPUT_REQUIRED` → `input-required`; `input-required` stays; non-strings and blanks → undefined. */
export function normaliseState(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const known = NORMALISED_STATES.get(value);
  if (known !== undefined || NORMALISED_STATES.has(value)) return known;
  const state = value
    .trim()
    .toLowerCase()
    .replace(/^task_state_/, '')
    .replace(/_/g, '-');
  const normalised = state.length > 0 ? state : undefined;
  // Bounded: a misbehaving upstream sending ever new strings must not grow the cache without end.
  if (NORMALISED_STATES.size < 64) NORMALISED_STATES.set(value, normalised);
  return normalised;
}

function inferKind(body: WireObject): FrameKind {
  const legacy = typeof body.kind === 'string' ? LEGACY_KINDS[body.kind] : undefined;
  if (legacy) return legacy;
  if (isWireObject(body.artifact)) return 'artifactUpdate';
  if (isWireObject(body.status)) return typeof body.id === 'string' ? 'task' : 'statusUpdate';
  if (Array.isArray(body.parts) && typeof body.messageId === 'string') return 'message';
  return 'unknown';
}

/** First non-empty of `iacCodeSessionId`, `pipeline.iacCodeSessionId`, `pipelineBatch.events[*].iacCodeSessionId`. */
function sessionIdOf(iacCode: WireObject): string | undefined {
  // Read in place, without collecting candidates: every kernel frame carries the first one.
  const direct = nonEmptyString(iacCode.iacCodeSessionId);
  if (direct !== undefined) return direct;
  const pipeline = isWireObject(iacCode.pipeline)
    ? nonEmptyString(iacCode.pipeline.iacCodeSessionId)
    : undefined;
  if (pipeline !== undefined) return pipeline;
  const batch = iacCode.pipelineBatch;
  if (!isWireObject(batch) || !Array.isArray(batch.events)) return undefined;
  for (const envelope of batch.events) {
    const id = isWireObject(envelope) ? nonEmptyString(envelope.iacCodeSessionId) : undefined;
    if (id !== undefined) return id;
  }
  return undefined;
}

/** The frame's required inputs; the shared empty list, with nothing built, when it has none (most frames). */
function requiredInputsOf(iacCode: WireObject): WireObject[] {
  const pending = Array.isArray(iacCode.pendingPermissions) ? iacCode.pendingPermissions : NO_INPUTS;
  if (!isRequiredInput(iacCode.input) && !pending.some(isRequiredInput)) return NO_INPUTS;
  const seen = new Set<string>();
  const inputs: WireObject[] = [];
  for (const candidate of [iacCode.input, ...pending]) {
    if (!isRequiredInput(candidate)) continue;
    // A task snapshot can carry the same permission in `input` and in `pendingPermissions`.
    const key = nonEmptyString(candidate.inputId) ?? compactJson(candidate);
    if (seen.has(key)) continue;
    seen.add(key);
    inputs.push(candidate);
  }
  return inputs;
}

function isRequiredInput(candidate: unknown): candidate is WireObject {
  return isWireObject(candidate) && candidate.required === true;
}

/** The sideband input ids; the shared empty list when the frame has no input and no pending permission. */
function sidebandInputIdsOf(iacCode: WireObject): string[] {
  const direct = iacCode.input;
  const pending = iacCode.pendingPermissions;
  if (direct === undefined && !Array.isArray(pending)) return NO_IDS;
  const ids = new Set<string>();
  if (isWireObject(direct) && (direct.scope === 'candidate' || typeof direct.subPipelineId === 'string')) {
    const id = nonEmptyString(direct.inputId);
    if (id) ids.add(id);
  }
  if (Array.isArray(pending)) {
    for (const permission of pending) {
      const id = isWireObject(permission) ? nonEmptyString(permission.inputId) : undefined;
      if (id) ids.add(id);
    }
  }
  return ids.size === 0 ? NO_IDS : [...ids];
}
