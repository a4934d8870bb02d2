import type { BaseEvent } from '@ag-ui/core';
import type { A2aEventMapper } from '../../events/a2a-event-mapper';
import type { SyntheticToolResult } from '../../interrupts/encode-answer';

/**
 * What one resume has under way while its answers travel, owned by the resume and read by the frame
 * consumer: the interrupts being answered, the Pipeline recovery still to run, and the tool results of
 * accepted question answers still to emit (docs/behaviour/interrupts.md#forwarding-answers).
 */
export class AnswersInFlight {
  private readonly answering = new Set<string>();
  private readonly toolResults: SyntheticToolResult[] = [];
  /** `afterSequence` of a Pipeline recovery still to run (docs/behaviour/events.md#pipeline-recovery b). */
  private recoveryAfter: number | undefined;

  /**
   * `recover` runs a Pipeline recovery from a sequence and maps what it returns; it is called at most once
   * per scheduled recovery.
   */
  constructor(private readonly recover: (afterSequence: number) => AsyncGenerator<BaseEvent>) {}

  /** A wait still shown by A2A for one of these is not a new interrupt while the answers are being sent. */
  answer(ids: Iterable<string>): void {
    for (const id of ids) this.answering.add(id);
  }

  get answeringIds(): ReadonlySet<string> {
    return this.answering;
  }

  scheduleRecovery(afterSequence: number): void {
    this.recoveryAfter = afterSequence;
  }

  /** Runs the scheduled sideband recovery once: the recovered events, mapped like live ones. */
  async *recoverIfScheduled(): AsyncGenerator<BaseEvent> {
    const afterSequence = this.recoveryAfter;
    if (afterSequence === undefined) return;
    this.recoveryAfter = undefined;
    yield* this.recover(afterSequence);
  }

  queueToolResults(results: readonly SyntheticToolResult[]): void {
    this.toolResults.push(...results);
  }

  /** The queued tool results, each emitted once, right after the session event (docs/behaviour/events.md#tools). */
  *emitToolResults(mapper: A2aEventMapper, now: number): Generator<BaseEvent> {
    for (const result of this.toolResults.splice(0))
      yield* mapper.resolveTool(result.toolCallId, result.content, now);
  }
}
