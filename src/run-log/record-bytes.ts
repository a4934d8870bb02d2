/** The first chunk of a log: a detached run that logs little holds little. */
const FIRST_CHUNK = 4 * 1024;
/** Chunks double up to this; a record larger than a chunk gets one of its own size. */
const MAX_CHUNK = 64 * 1024;

/**
 * A log's SSE records, oldest first, as UTF-8 bytes in off-heap chunks (Buffers) rather than as strings: a
 * burst's records then leave no object per event for the garbage collector to promote and trace, which is
 * what holding them cost (docs/benchmarks.md, "Runs that survive their connection"). The records are
 * `JSON.stringify` output, well-formed UTF-16, so they read back exactly. Each record carries the bytes
 * its log counts for it (`weight`), given back when it is dropped.
 */
export class RecordBytes {
  private chunk = Buffer.allocUnsafeSlow(FIRST_CHUNK);
  private used = 0;
  /** Bytes of the record written after the last one held, not held yet. */
  private staged = 0;
  /** Per record: its chunk, where it starts there, its length in bytes, and its weight. */
  private readonly chunks: Buffer[] = [];
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private readonly weights: number[] = [];
  /** Index of the oldest record held (the arrays are compacted now and then, not shifted). */
  private head = 0;

  get count(): number {
    return this.offsets.length - this.head;
  }

  /**
   * Writes `record` after the last one held and answers its length in UTF-8 bytes; it is held only once
   * `keepStaged` is called (before the next `stage`), so a log can count a record's bytes before it decides.
   */
  stage(record: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: the exact length is counted only near a chunk's end.
    if (this.chunk.length - this.used < record.length * 3) {
      const bytes = Buffer.byteLength(record, 'utf8');
      if (this.chunk.length - this.used < bytes) {
        this.chunk = Buffer.allocUnsafeSlow(Math.max(Math.min(this.chunk.length * 2, MAX_CHUNK), bytes));
        this.used = 0;
      }
    }
    this.staged = this.chunk.write(record, this.used, 'utf8');
    return this.staged;
  }

  /** Holds the record last staged, with the weight its log counts for it. */
  keepStaged(weight: number): void {
    this.chunks.push(this.chunk);
    this.offsets.push(this.used);
    this.lengths.push(this.staged);
    this.weights.push(weight);
    this.used += this.staged;
    this.staged = 0;
  }

  /** The record `index` places after the oldest held. */
  at(index: number): string {
    const at = this.head + index;
    const offset = this.offsets[at];
    return this.chunks[at].toString('utf8', offset, offset + this.lengths[at]);
  }

  /** Drops the oldest record; answers its weight (0 when none is held). */
  dropOldest(): number {
    if (this.head >= this.offsets.length) return 0;
    const weight = this.weights[this.head++];
    if (this.head > 1024 && this.head * 2 > this.offsets.length) {
      for (const list of [this.chunks, this.offsets, this.lengths, this.weights]) list.splice(0, this.head);
      this.head = 0;
    }
    return weight;
  }

  clear(): void {
    for (const list of [this.chunks, this.offsets, this.lengths, this.weights]) list.length = 0;
    this.head = 0;
  }
}
