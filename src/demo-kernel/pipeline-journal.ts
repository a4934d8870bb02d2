import type { PipelineEnvelope } from './pipeline-envelopes';

interface TaskPipeline {
  readonly envelopes: PipelineEnvelope[];
  pipelineRunId: string;
  iacCodeSessionId?: string;
  isCompleted: boolean;
}

/** The body of `GET /iac-code/pipeline/state` (docs/behaviour/a2a.md#transport, docs/behaviour/events.md#pipeline-recovery). */
export interface PipelineState {
  readonly snapshot: {
    readonly pipelineRunId: string;
    readonly status: 'running' | 'completed';
    readonly lastSequence: number;
    readonly iacCodeSessionId?: string;
  };
  readonly events: readonly PipelineEnvelope[];
}

/**
 * Every Pipeline envelope a task published, in order, so the kernel's recovery route can replay what a
 * gateway missed while it was not reading (docs/behaviour/events.md#pipeline-recovery; candidate B's text after the gateway
 * stopped at A's permission).
 */
export class PipelineJournal {
  private readonly pipelines = new Map<string, TaskPipeline>();
  private readonly waiters = new Set<() => void>();

  record(taskId: string, envelopes: readonly PipelineEnvelope[]): void {
    for (const envelope of envelopes) {
      let pipeline = this.pipelines.get(taskId);
      if (!pipeline) {
        pipeline = { envelopes: [], pipelineRunId: `pipeline-${taskId}`, isCompleted: false };
        this.pipelines.set(taskId, pipeline);
      }
      const runId = (envelope.data as { pipelineRunId?: unknown } | undefined)?.pipelineRunId;
      if (typeof runId === 'string' && pipeline.envelopes.length === 0) pipeline.pipelineRunId = runId;
      if (typeof envelope.iacCodeSessionId === 'string')
        pipeline.iacCodeSessionId = envelope.iacCodeSessionId;
      if (envelope.eventType === 'pipeline_completed') pipeline.isCompleted = true;
      pipeline.envelopes.push(envelope);
    }
    for (const wake of [...this.waiters]) wake();
  }

  /**
   * Resolves once the task has published an envelope with `sequence` or above, or when `signal` aborts: a
   * test waits for what the kernel did while no gateway was reading instead of racing a timer.
   */
  async reached(taskId: string, sequence: number, signal: AbortSignal): Promise<void> {
    const isReached = (): boolean => (this.stateOf(taskId, 0)?.snapshot.lastSequence ?? 0) >= sequence;
    if (isReached() || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (!isReached() && !signal.aborted) return;
        this.waiters.delete(check);
        signal.removeEventListener('abort', check);
        resolve();
      };
      this.waiters.add(check);
      signal.addEventListener('abort', check, { once: true });
    });
  }

  /** The snapshot and the envelopes after `afterSequence`; undefined when the task has no Pipeline. */
  stateOf(taskId: string, afterSequence: number): PipelineState | undefined {
    const pipeline = this.pipelines.get(taskId);
    if (!pipeline) return undefined;
    const lastSequence = Math.max(0, ...pipeline.envelopes.map((envelope) => envelope.sequence));
    return {
      snapshot: {
        pipelineRunId: pipeline.pipelineRunId,
        status: pipeline.isCompleted ? 'completed' : 'running',
        lastSequence,
        ...(pipeline.iacCodeSessionId ? { iacCodeSessionId: pipeline.iacCodeSessionId } : {}),
      },
      events: pipeline.envelopes.filter((envelope) => envelope.sequence > afterSequence),
    };
  }
}
