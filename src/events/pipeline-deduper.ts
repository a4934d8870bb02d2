import { nonEmptyString, wireInteger, type WireObject } from '../wire/wire-value';

/**
 * Drops Pipeline envelopes this run already mapped (docs/behaviour/events.md#pipeline-envelopes "Dedupe", docs/behaviour/events.md#pipeline-recovery step 2). The kernel repeats
 * envelopes (a batch and its live twin, a GetTask snapshot and the stream, recovery and the stream), so the
 * run remembers every `eventId` it accepted — one Set entry per distinct id, living as long as the run — and
 * the highest `sequence` it accepted. The cursor starts at 0 for every run: the thread's persisted
 * `pipelineSequence` only parameterises recovery calls (docs/behaviour/events.md#pipeline-envelopes), it never hides live events.
 * One per run (`new`).
 */
export class PipelineDeduper {
  private readonly seenIds = new Set<string>();
  private cursor = 0;

  /** The highest sequence accepted (or raised to by a recovery snapshot) in this run. */
  get sequenceCursor(): number {
    return this.cursor;
  }

  /** How many distinct event ids this run accepted. */
  get seenCount(): number {
    return this.seenIds.size;
  }

  hasSeen(eventId: string): boolean {
    return this.seenIds.has(eventId);
  }

  /**
   * Live rule: a seen id is dropped; so is any envelope whose sequence is at or below the cursor, id or not.
   * A sequence of 0 or none never counts as below; a negative one always does, as in the original.
   */
  acceptLive(envelope: WireObject): boolean {
    const eventId = nonEmptyString(envelope.eventId);
    if (eventId !== undefined && this.seenIds.has(eventId)) return false;
    const sequence = wireInteger(envelope.sequence) ?? 0;
    if (sequence !== 0 && sequence <= this.cursor) return false;
    return this.accept(eventId, sequence);
  }

  /**
   * Recovery rule: a seen id is dropped, but an unseen id below the cursor is accepted — the authoritative
   * state may fill a gap the live stream skipped (
   * `test_authoritative_recovery_can_fill_unseen_event_below_live_cursor`). Only id-less envelopes fall back
   * to the sequence rule.
   */
  acceptRecovered(envelope: WireObject): boolean {
    const eventId = nonEmptyString(envelope.eventId);
    const sequence = wireInteger(envelope.sequence) ?? 0;
    if (eventId !== undefined) {
      if (this.seenIds.has(eventId)) return false;
    } else if (sequence !== 0 && sequence <= this.cursor) {
      return false;
    }
    return this.accept(eventId, sequence);
  }

  /** A recovery snapshot's `lastSequence` moves the cursor forward, never back (docs/behaviour/events.md#pipeline-recovery step 3). */
  raiseCursor(sequence: number): void {
    if (sequence > this.cursor) this.cursor = sequence;
  }

  private accept(eventId: string | undefined, sequence: number): true {
    if (eventId !== undefined) this.seenIds.add(eventId);
    this.raiseCursor(sequence);
    return true;
  }
}
