import { isWireObject, nonEmptyString, type WireObject } from '../wire/wire-value';

/** Where a Pipeline envelope sits: `candidate`, then `candidateStep`, then `step` (docs/behaviour/events.md#pipeline-envelopes). */
const COORDINATE_KEYS = ['candidate', 'candidateStep', 'step'] as const;

const STEP_KEY_PREFIX = 'step:';

/** A Pipeline step as the mapper tracks it: a durable key and the AG-UI stepName of that key. */
export interface PipelineStepRef {
  readonly key: string;
  readonly stepName: string;
}

/**
 * The AG-UI message id of a Pipeline text/thinking stream:
 * `pipeline-message:<pipelineRunId>:<scope | "pipeline">[:<coords>]`, coords being the de-duplicated
 * `runId` (else `id`) of candidate, candidateStep and step. The candidate comes first because a candidate
 * step id (`template_generating`) is shared by every parallel candidate (
 * `test_parallel_candidate_text_uses_candidate_run_identity_before_shared_step_id`).
 */
export function pipelineMessageId(envelope: WireObject, pipelineRunId: string): string {
  const scope = nonEmptyString(envelope.scope) ?? 'pipeline';
  let id = `pipeline-message:${pipelineRunId}:${scope}`;
  const coordinates: string[] = [];
  for (const key of COORDINATE_KEYS) {
    const coordinate = envelope[key];
    if (!isWireObject(coordinate)) continue;
    const runId = nonEmptyString(coordinate.runId) ?? nonEmptyString(coordinate.id);
    if (runId === undefined || coordinates.includes(runId)) continue;
    coordinates.push(runId);
    id += `:${runId}`;
  }
  return id;
}

/**
 * The step an envelope is about, or undefined when it names none. Step id = `(candidateStep || step).id`;
 * key = `candidate:<candidate id|subPipelineId|runId>:<stepId>` when the candidate has an identity, else
 * `step:<stepId>`; stepName = the step id for `step:` keys and the whole key for candidate keys, so parallel
 * candidates running the same step get distinct AG-UI names (docs/behaviour/events.md#pipeline-envelopes).
 */
export function pipelineStepOf(envelope: WireObject): PipelineStepRef | undefined {
  // Python's `candidateStep or step`: an empty candidateStep object falls through to `step`.
  const candidateStep = envelope.candidateStep;
  const step = isWireObject(candidateStep) && hasAnyKey(candidateStep) ? candidateStep : envelope.step;
  const stepId = isWireObject(step) ? nonEmptyString(step.id) : undefined;
  if (stepId === undefined) return undefined;
  const candidate = envelope.candidate;
  const candidateId = isWireObject(candidate)
    ? (nonEmptyString(candidate.id) ??
      nonEmptyString(candidate.subPipelineId) ??
      nonEmptyString(candidate.runId))
    : undefined;
  if (candidateId === undefined) return { key: `${STEP_KEY_PREFIX}${stepId}`, stepName: stepId };
  const key = `candidate:${candidateId}:${stepId}`;
  return { key, stepName: key };
}

/** The stepName of a durable key, for steps reopened in a later run (docs/behaviour/events.md#run-lifecycle step 2). */
export function stepNameOfKey(key: string): string {
  return key.startsWith(STEP_KEY_PREFIX) ? key.slice(STEP_KEY_PREFIX.length) : key;
}

/** `Object.keys(value).length > 0` without building the array (this runs for every step envelope). */
function hasAnyKey(value: WireObject): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}
