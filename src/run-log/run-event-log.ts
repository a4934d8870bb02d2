import type { EventFrame } from '../wire/sse-frame';
import type { ByteBudget } from './byte-budget';
import { formatCursor } from './event-cursor';

export interface RunLogBounds {
  readonly maxEvents: number;
  readonly maxBytes: number;
  /** Shared with every other log of the process. */
  readonly total: ByteBudget;
}

/**
 * The frames after a cursor, in order and without a gap (the first is the one after the cursor), or
 * `expired` when the log no longer holds the first of them.
 */
export type LogRead =
  { readonly kind: 'frames'; readonly frames: readonly EventFrame[] } | { readonly kind: 'expired' };

/** Decimal digits of a sequence (≥ 1): the length of its half of the cursor, without making the string. */
function digitsOf(sequence: number): number {
  let digits = 1;
  for (let rest = sequence; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

/**
 * One run's events in memory, in order, within its bounds (docs/behaviour/reattach.md#bounds): the frames a
 * reattaching reader may still ask for. Frames are numbered from 1 and kept encoded (the `data:` record
 * every reader writes); an event's bytes are its cursor's and its record's, as a reader gets them. Only
 * the record is held: the cursor is `<run token>.<sequence>` and the sequence is the frame's place in the
 * log, so `after()` rebuilds both for the few reads while a burst appends one record per event and keeps
 * nothing else alive (docs/benchmarks.md, "Runs that survive their connection": holding a burst's frame
 * objects was the window's extra CPU, in the garbage collector).
 * The oldest leave first when the log is full.
 */
export class RunEventLog {
  private readonly records: string[] = [];
  /** Index in `records` of the oldest record held (the array is compacted now and then, not shifted). */
  private head = 0;
  private heldBytes = 0;
  /** Sequence of the oldest record held, or the next one when none is. */
  private firstHeld = 1;
  private last = 0;
  private isClosed = false;
  private changed?: { promise: Promise<void>; resolve: () => void };

  /** `runToken`: the first half of each of the run's cursors (formatCursor). */
  constructor(
    private readonly runToken: string,
    private readonly bounds: RunLogBounds,
  ) {}

  get lastSequence(): number {
    return this.last;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * Appends the run's next frame, sequence `lastSequence + 1`, by its SSE record (`frame.data`; its id is
   * that cursor). Over a bound, the oldest frames make room: the log is a window of the run's newest events
   * (docs/behaviour/reattach.md#bounds).
   */
  append(record: string): void {
    const bytes = this.bytesOf(this.last + 1, record);
    while (!this.fits(bytes) && this.evictOldest());
    let hasRoom = this.fits(bytes) && this.bounds.total.take(bytes);
    while (!hasRoom && this.evictOldest()) hasRoom = this.fits(bytes) && this.bounds.total.take(bytes);
    const sequence = ++this.last;
    if (hasRoom) {
      this.records.push(record);
      this.heldBytes += bytes;
    } else {
      // Even an empty log cannot hold it (the process total is taken by other runs): an attached reader
      // has it; a later reattach from before it is told the log moved on.
      this.firstHeld = sequence + 1;
    }
    // A resolve only when a reader waits: most appends of a burst have none.
    if (this.changed) this.wakeReaders();
  }

  /** Whether the frame after `sequence` is gone from the log (dropped at a bound). */
  hasDropped(sequence: number): boolean {
    return sequence + 1 < this.firstHeld;
  }

  /** The frames after `sequence` (0: from the first); `expired` when the next one is no longer held. */
  after(sequence: number): LogRead {
    if (this.hasDropped(sequence)) return { kind: 'expired' };
    const frames: EventFrame[] = [];
    for (let next = sequence + 1; next <= this.last; next++)
      frames.push({
        id: formatCursor(this.runToken, next),
        data: this.records[this.head + (next - this.firstHeld)],
      });
    return { kind: 'frames', frames };
  }

  /** Settles at the next append or at the close. */
  whenChanged(): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    if (!this.changed) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.changed = { promise, resolve };
    }
    return this.changed.promise;
  }

  /** No more frames will come. */
  close(): void {
    this.isClosed = true;
    this.wakeReaders();
  }

  /** Gives the log's bytes back to the process; the log is being dropped. */
  release(): void {
    this.bounds.total.give(this.heldBytes);
    this.heldBytes = 0;
    this.records.length = 0;
    this.head = 0;
    this.firstHeld = this.last + 1;
  }

  /** What the event counts against the bounds: its cursor's characters and its record's. */
  private bytesOf(sequence: number, record: string): number {
    return this.runToken.length + 1 + digitsOf(sequence) + record.length;
  }

  private fits(bytes: number): boolean {
    const { maxEvents, maxBytes } = this.bounds;
    return this.records.length - this.head < maxEvents && this.heldBytes + bytes <= maxBytes;
  }

  private evictOldest(): boolean {
    if (this.head >= this.records.length) return false;
    const bytes = this.bytesOf(this.firstHeld, this.records[this.head++]);
    this.heldBytes -= bytes;
    this.bounds.total.give(bytes);
    this.firstHeld++;
    if (this.head > 1024 && this.head * 2 > this.records.length) {
      this.records.splice(0, this.head);
      this.head = 0;
    }
    return true;
  }

  private wakeReaders(): void {
    const changed = this.changed;
    this.changed = undefined;
    changed?.resolve();
  }
}
