import type { EventFrame } from '../wire/sse-frame';
import type { ByteBudget } from './byte-budget';

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

/**
 * One run's events in memory, in order, within its bounds (docs/behaviour/reattach.md#bounds): the frames a
 * reattaching reader may still ask for. Frames are kept encoded (the bytes every reader writes), numbered
 * from 1; the oldest leave first when a reader is attached and the log is full. The frame objects the run
 * delivered are kept as they are (no copy per event): a frame's sequence is its place in the log.
 */
export class RunEventLog {
  private readonly frames: EventFrame[] = [];
  /** Index in `frames` of the oldest frame held (the array is compacted now and then, not shifted). */
  private head = 0;
  private heldBytes = 0;
  /** Sequence of the oldest frame held, or the next one when none is. */
  private firstHeld = 1;
  private last = 0;
  private isClosed = false;
  private changed?: { promise: Promise<void>; resolve: () => void };

  constructor(private readonly bounds: RunLogBounds) {}

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
   * Appends the run's next frame. Over a bound, the oldest frames make room when `mayEvict` (a reader is
   * attached: it already has them); otherwise nothing is appended and the answer is false.
   */
  append(frame: EventFrame, mayEvict: boolean): boolean {
    const bytes = frame.id.length + frame.data.length;
    while (!this.fits(bytes) && mayEvict && this.evictOldest());
    let hasRoom = this.fits(bytes) && this.bounds.total.take(bytes);
    while (!hasRoom && mayEvict && this.evictOldest())
      hasRoom = this.fits(bytes) && this.bounds.total.take(bytes);
    if (!hasRoom && !mayEvict) return false;
    const sequence = ++this.last;
    if (hasRoom) {
      this.frames.push(frame);
      this.heldBytes += bytes;
    } else {
      // Even an empty log cannot hold it (the process total is taken by other runs): an attached reader
      // has it; a later reattach from before it is told the events expired.
      this.firstHeld = sequence + 1;
    }
    this.wakeReaders();
    return true;
  }

  /** Whether the frame after `sequence` is gone from the log (dropped at a bound). */
  hasDropped(sequence: number): boolean {
    return sequence + 1 < this.firstHeld;
  }

  /** The frames after `sequence` (0: from the first); `expired` when the next one is no longer held. */
  after(sequence: number): LogRead {
    if (this.hasDropped(sequence)) return { kind: 'expired' };
    const start = this.head + (sequence + 1 - this.firstHeld);
    return { kind: 'frames', frames: this.frames.slice(start) };
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
    this.frames.length = 0;
    this.head = 0;
    this.firstHeld = this.last + 1;
  }

  private fits(bytes: number): boolean {
    const { maxEvents, maxBytes } = this.bounds;
    return this.frames.length - this.head < maxEvents && this.heldBytes + bytes <= maxBytes;
  }

  private evictOldest(): boolean {
    if (this.head >= this.frames.length) return false;
    const oldest = this.frames[this.head++];
    const bytes = oldest.id.length + oldest.data.length;
    this.heldBytes -= bytes;
    this.bounds.total.give(bytes);
    this.firstHeld++;
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames.splice(0, this.head);
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
