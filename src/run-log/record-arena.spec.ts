import { RecordArena } from './record-arena';

describe('RecordArena', () => {
  it('reads back every record exactly, across chunks and in any script, oldest first', () => {
    const arena = new RecordArena();
    const records = Array.from(
      { length: 5000 },
      (_, n) =>
        `data: ${JSON.stringify({ n, text: n % 3 === 0 ? 'héllo 世界 🚀' : 'x'.repeat(n % 300) })}\n\n`,
    );
    // Larger than a chunk: it gets one of its own.
    records.splice(2500, 0, `data: ${'y'.repeat(300_000)}é\n\n`);
    records.forEach((record, n) => arena.push(record, n));
    expect(arena.count).toBe(records.length);
    expect(Array.from({ length: arena.count }, (_, index) => arena.at(index))).toEqual(records);
  });

  it('drops the oldest first, answering the weight each was held with, and keeps the rest readable', () => {
    const arena = new RecordArena();
    const record = (n: number) => `data: {"n":${n},"pad":"${'p'.repeat(n % 500)}"}\n\n`;
    for (let n = 0; n < 20_000; n++) {
      arena.push(record(n), n + 1);
      if (n >= 1000) expect(arena.dropOldest()).toBe(n - 999);
    }
    expect(arena.count).toBe(1000);
    expect(arena.at(0)).toBe(record(19_000));
    expect(arena.at(999)).toBe(record(19_999));
    for (let n = 0; n < 1000; n++) arena.dropOldest();
    expect([arena.count, arena.dropOldest()]).toEqual([0, 0]);
    arena.push('after', 5);
    expect([arena.count, arena.at(0)]).toEqual([1, 'after']);
    arena.clear();
    expect(arena.count).toBe(0);
  });
});
