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
    for (let n = 1; n <= 4; n++) log.append(record());
    expect(sequences(log)).toEqual([1, 2, 3, 4]);
    expect(sequences(log, 2)).toEqual([3, 4]);
    expect(sequences(log, 4)).toEqual([]);
  });

  it('with a reader attached, drops its oldest frames at a bound: earlier cursors are then expired', () => {
    const log = new RunEventLog('t', { maxEvents: 2, maxBytes: 1000, total: new ByteBudget(1000) });
    for (let n = 1; n <= 5; n++) log.append(record());
    expect(sequences(log, 3)).toEqual([4, 5]);
    expect(sequences(log, 2)).toBe('expired');
    expect(log.hasDropped(2)).toBe(true);
  });

  it("counts each event's cursor and record against the bounds, as a reader gets them", () => {
    const total = new ByteBudget(1000);
    const log = new RunEventLog('0123456789abcdef', { maxEvents: 5, maxBytes: 1000, total });
    for (let n = 1; n <= 12; n++) log.append(`data: ${n}\n\n`);
    const read = log.after(7);
    if (read.kind !== 'frames') throw new Error(read.kind);
    expect(read.frames).toEqual(
      [8, 9, 10, 11, 12].map((n) => ({ id: `0123456789abcdef.${n}`, data: `data: ${n}\n\n` })),
    );
    const held = read.frames.reduce((sum, { id, data }) => sum + id.length + data.length, 0);
    expect(log.bytes).toBe(held);
    expect(total.usedBytes).toBe(held);
  });

  it('keeps the newest events whoever is attached: a run past its bound stays readable inside the window', () => {
    const total = new ByteBudget(1000);
    const log = new RunEventLog('t', { maxEvents: 100, maxBytes: 25, total });
    for (let n = 1; n <= 3; n++) log.append(record());
    expect(sequences(log, 2)).toEqual([3]);
    expect(sequences(log, 1)).toBe('expired');
    expect(log.bytes).toBe(13);
    expect(total.usedBytes).toBe(13);
  });

  it('shares the process total: bytes come back when a log is released', () => {
    const total = new ByteBudget(30);
    const first = new RunEventLog('t', { maxEvents: 100, maxBytes: 1000, total });
    const second = new RunEventLog('t', { maxEvents: 100, maxBytes: 1000, total });
    first.append(record(20));
    second.append(record(20));
    expect(sequences(second)).toBe('expired');
    expect(total.usedBytes).toBe(23);
    first.release();
    expect(total.usedBytes).toBe(0);
    second.append(record(20));
    expect(sequences(second, 1)).toEqual([2]);
  });

  it('a run over the process total with nothing of its own to drop skips the frame: it expires', () => {
    const total = new ByteBudget(30);
    const other = new RunEventLog('t', { maxEvents: 100, maxBytes: 1000, total });
    other.append(record(25));
    const log = new RunEventLog('t', { maxEvents: 100, maxBytes: 1000, total });
    log.append(record(20));
    expect(log.lastSequence).toBe(1);
    expect(sequences(log)).toBe('expired');
    expect(sequences(log, 1)).toEqual([]);
  });

  it('wakes a waiting reader at the next append and at the close', async () => {
    const log = new RunEventLog('t', { maxEvents: 10, maxBytes: 1000, total: new ByteBudget(1000) });
    const appended = log.whenChanged();
    log.append(record());
    await appended;
    const closed = log.whenChanged();
    log.close();
    await closed;
    expect(log.closed).toBe(true);
  });
});
