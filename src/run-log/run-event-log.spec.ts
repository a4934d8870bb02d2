import { ByteBudget } from './byte-budget';
import { RunEventLog } from './run-event-log';

/** A record of `size` characters; with the run token `t`, frame n's bytes are `t.<n>` plus these. */
const record = (size = 10) => 'x'.repeat(size);
/** The sequences of the frames after `after`, read back from their ids (`t.<n>`). */
const sequences = (log: RunEventLog, after = 0) => {
  const read = log.after(after);
  return read.kind === 'frames' ? read.frames.map((f) => Number(f.id.slice(2))) : read.kind;
};

describe('RunEventLog (docs/behaviour/reattach.md#bounds)', () => {
  it('numbers frames from 1 and reads those after a sequence', () => {
    const log = new RunEventLog('t', { maxEvents: 10, maxBytes: 1000, total: new ByteBudget(1000) });
    for (let n = 1; n <= 4; n++) expect(log.append(record(), false)).toBe(true);
    expect(sequences(log)).toEqual([1, 2, 3, 4]);
    expect(sequences(log, 2)).toEqual([3, 4]);
    expect(sequences(log, 4)).toEqual([]);
  });

  it('with a reader attached, drops its oldest frames at a bound: earlier cursors are then expired', () => {
    const log = new RunEventLog('t', { maxEvents: 2, maxBytes: 1000, total: new ByteBudget(1000) });
    for (let n = 1; n <= 5; n++) expect(log.append(record(), true)).toBe(true);
    expect(sequences(log, 3)).toEqual([4, 5]);
    expect(sequences(log, 2)).toBe('expired');
    expect(log.hasDropped(2)).toBe(true);
  });

  it("counts each event's cursor and record against the bounds, as a reader gets them", () => {
    const total = new ByteBudget(1000);
    const log = new RunEventLog('0123456789abcdef', { maxEvents: 5, maxBytes: 1000, total });
    for (let n = 1; n <= 12; n++) log.append(`data: ${n}\n\n`, true);
    const read = log.after(7);
    if (read.kind !== 'frames') throw new Error(read.kind);
    expect(read.frames).toEqual(
      [8, 9, 10, 11, 12].map((n) => ({ id: `0123456789abcdef.${n}`, data: `data: ${n}\n\n` })),
    );
    const held = read.frames.reduce((sum, { id, data }) => sum + id.length + data.length, 0);
    expect(log.bytes).toBe(held);
    expect(total.usedBytes).toBe(held);
  });

  it('detached, refuses the frame over a bound (the run is cancelled) and keeps what it has', () => {
    const log = new RunEventLog('t', { maxEvents: 100, maxBytes: 25, total: new ByteBudget(1000) });
    expect(log.append(record(), false)).toBe(true);
    expect(log.append(record(), false)).toBe(false);
    expect(sequences(log)).toEqual([1]);
  });

  it('shares the process total: bytes come back when a log is released', () => {
    const total = new ByteBudget(30);
    const first = new RunEventLog('t', { maxEvents: 100, maxBytes: 1000, total });
    const second = new RunEventLog('t', { maxEvents: 100, maxBytes: 1000, total });
    expect(first.append(record(20), false)).toBe(true);
    expect(second.append(record(20), false)).toBe(false);
    first.release();
    expect(total.usedBytes).toBe(0);
    expect(second.append(record(20), false)).toBe(true);
  });

  it('an attached run over the process total with nothing of its own to drop skips the frame: it expires', () => {
    const total = new ByteBudget(30);
    const other = new RunEventLog('t', { maxEvents: 100, maxBytes: 1000, total });
    other.append(record(25), false);
    const log = new RunEventLog('t', { maxEvents: 100, maxBytes: 1000, total });
    expect(log.append(record(20), true)).toBe(true);
    expect(log.lastSequence).toBe(1);
    expect(sequences(log)).toBe('expired');
    expect(sequences(log, 1)).toEqual([]);
  });

  it('wakes a waiting reader at the next append and at the close', async () => {
    const log = new RunEventLog('t', { maxEvents: 10, maxBytes: 1000, total: new ByteBudget(1000) });
    const appended = log.whenChanged();
    log.append(record(), true);
    await appended;
    const closed = log.whenChanged();
    log.close();
    await closed;
    expect(log.closed).toBe(true);
  });
});
