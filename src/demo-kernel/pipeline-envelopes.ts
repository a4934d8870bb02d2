import { statusFrame } from './kernel-frames';
import type { KernelFrame, KernelTurnInput } from './kernel-script';

/**
 * Pure builders for the kernel's Pipeline envelopes (docs/behaviour/events.md#pipeline-envelopes): `metadata.iac_code.pipeline` holds
 * one, `metadata.iac_code.pipelineBatch.events[]` several, each with the fields the gateway reads.
 */

type Ids = Pick<KernelTurnInput, 'taskId' | 'contextId' | 'sessionId'>;

export interface PipelineCoordinate {
  readonly id: string;
  readonly runId: string;
}

export type PipelineScope = 'pipeline' | 'step' | 'candidate';

export interface PipelineEnvelopeSpec {
  readonly eventType: string;
  readonly scope: PipelineScope;
  readonly step?: PipelineCoordinate;
  readonly candidate?: PipelineCoordinate;
  readonly candidateStep?: PipelineCoordinate;
  readonly data?: Readonly<Record<string, unknown>>;
}

export type PipelineEnvelope = Readonly<Record<string, unknown>> & {
  readonly eventId: string;
  readonly eventType: string;
  readonly sequence: number;
};

/** One envelope; `eventId` is derived from the run and the sequence, so a replay carries the same id. */
export function pipelineEnvelope(
  ids: Ids,
  pipelineRunId: string,
  sequence: number,
  spec: PipelineEnvelopeSpec,
): PipelineEnvelope {
  return {
    eventId: `${pipelineRunId}-event-${sequence}`,
    eventType: spec.eventType,
    sequence,
    scope: spec.scope,
    ...(spec.step ? { step: { ...spec.step } } : {}),
    ...(spec.candidate ? { candidate: { ...spec.candidate } } : {}),
    ...(spec.candidateStep ? { candidateStep: { ...spec.candidateStep } } : {}),
    data: { ...spec.data },
    iacCodeSessionId: ids.sessionId,
  };
}

/** A WORKING frame with one envelope in `iac_code.pipeline` (plus any other `iac_code` fields). */
export function pipelineFrame(
  ids: Ids,
  envelope: PipelineEnvelope,
  extra: Readonly<Record<string, unknown>> = {},
): KernelFrame {
  return statusFrame(ids, 'TASK_STATE_WORKING', { iacCode: { ...extra, pipeline: envelope } });
}

/** A WORKING frame with several envelopes in `iac_code.pipelineBatch.events`. */
export function pipelineBatchFrame(ids: Ids, envelopes: readonly PipelineEnvelope[]): KernelFrame {
  return statusFrame(ids, 'TASK_STATE_WORKING', { iacCode: { pipelineBatch: { events: envelopes } } });
}

/** The envelopes a frame carries, batch first then the single one (the gateway's order, docs/behaviour/events.md#mapping-order). */
export function pipelineEnvelopesOf(frame: KernelFrame): PipelineEnvelope[] {
  if (!('statusUpdate' in frame)) return [];
  const iacCode = (frame.statusUpdate.metadata as { iac_code?: Record<string, unknown> } | undefined)
    ?.iac_code;
  const batch = (iacCode?.pipelineBatch as { events?: unknown } | undefined)?.events;
  const envelopes = [...(Array.isArray(batch) ? batch : []), iacCode?.pipeline];
  return envelopes.filter(isEnvelope);
}

function isEnvelope(value: unknown): value is PipelineEnvelope {
  const envelope = value as Partial<PipelineEnvelope> | null | undefined;
  return (
    typeof envelope === 'object' &&
    envelope !== null &&
    typeof envelope.eventId === 'string' &&
    typeof envelope.eventType === 'string' &&
    typeof envelope.sequence === 'number'
  );
}
