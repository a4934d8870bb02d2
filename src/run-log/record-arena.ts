/** A log's first chunk: a detached run that logs little holds little. Chunks double up to `MAX_CHUNK`. */
const FIRST_CHUNK = 4 * 1024;
const MAX_CHUNK = 256 * 1024;
const FIRST_SLOTS = 64;

/**
 * A log's SSE records, oldest first, as UTF-8 bytes in large off-heap chunks (Buffers), with each record's
 * chunk, offset, length and weight in typed arrays: a burst leaves no heap object per event for the
 * garbage collector to promote and trace (docs/benchmarks.md, "Runs that survive their connection"). A
 * record larger than a chunk gets one of its own; a chunk is dropped once its last record is. The
 * records are `JSON.stringify` output, well-formed UTF-16, so they read back exactly.
 */
export class RecordArena {
  /** The chunks still holding a record; `chunks[0]` is chunk number `firstChunk`. */
  private readonly chunks: Buffer[] = [];
  private firstChunk = 0;
  private used = 0;
  /** Per record, at `head + index`: its chunk's number, its offset there, its byte length, its weight. */
  private chunkOf = new Uint32Array(FIRST_SLOTS);
  private offsetOf = new Uint32Array(FIRST_SLOTS);
  private lengthOf = new Uint32Array(FIRST_SLOTS);
  private weightOf = new Float64Array(FIRST_SLOTS);
  private head = 0;
  private end = 0;

  get count(): number {
    return this.end - this.head;
  }

  /** Holds `record` after the last one, with the weight its log counts for it. */
  push(record: string, weight: number): void {
    if (this.end === this.chunkOf.length) this.makeSlot();
    let chunk = this.chunks[this.chunks.length - 1];
    // UTF-8 takes at most 3 bytes per UTF-16 unit: the exact length is counted only near a chunk's end.
    if (
      !chunk ||
      (chunk.length - this.used < record.length * 3 && chunk.length - this.used < Buffer.byteLength(record))
    ) {
      const size = Math.min((chunk?.length ?? FIRST_CHUNK / 2) * 2, MAX_CHUNK);
      chunk = Buffer.allocUnsafeSlow(Math.max(size, Buffer.byteLength(record)));
      this.chunks.push(chunk);
      this.used = 0;
    }
    const slot = this.end++;
    this.chunkOf[slot] = this.firstChunk + this.chunks.length - 1;
    this.offsetOf[slot] = this.used;
    this.lengthOf[slot] = chunk.write(record, this.used, 'utf8');
    this.weightOf[slot] = weight;
    this.used += this.lengthOf[slot];
  }

  /** The record `index` places after the oldest held. */
  at(index: number): string {
    const slot = this.head + index;
    const offset = this.offsetOf[slot];
    const chunk = this.chunks[this.chunkOf[slot] - this.firstChunk];
    return chunk.toString('utf8', offset, offset + this.lengthOf[slot]);
  }

  /** Drops the oldest record, and its chunk once it held no later one; answers its weight (0: none held). */
  dropOldest(): number {
    if (this.head === this.end) return 0;
    const weight = this.weightOf[this.head++];
    if (this.head === this.end) this.clear();
    else {
      const dropChunks = this.chunkOf[this.head] - this.firstChunk;
      if (dropChunks > 0) {
        this.chunks.splice(0, dropChunks);
        this.firstChunk += dropChunks;
      }
    }
    return weight;
  }

  clear(): void {
    this.firstChunk += this.chunks.length;
    this.chunks.length = 0;
    this.head = this.end = 0;
    this.used = 0;
  }

  /** Room for one more record: the held ones moved to the front when half is free, else twice the slots. */
  private makeSlot(): void {
    const [head, end] = [this.head, this.end];
    if (head * 2 >= end) {
      for (const column of [this.chunkOf, this.offsetOf, this.lengthOf, this.weightOf])
        column.copyWithin(0, head, end);
    } else {
      this.chunkOf = moved(this.chunkOf, new Uint32Array(end * 2), head, end);
      this.offsetOf = moved(this.offsetOf, new Uint32Array(end * 2), head, end);
      this.lengthOf = moved(this.lengthOf, new Uint32Array(end * 2), head, end);
      this.weightOf = moved(this.weightOf, new Float64Array(end * 2), head, end);
    }
    this.head = 0;
    this.end = end - head;
  }
}

function moved<T extends Uint32Array | Float64Array>(from: T, to: T, head: number, end: number): T {
  to.set(from.subarray(head, end));
  return to;
}
