import { RecordBytes } from './record-bytes';

describe('RecordBytes', () => {
  it('reads back every record exactly, across chunks and in any script, oldest first', () => {
    const store = new RecordBytes();
    const records = Array.from(
      { length: 3000 },
      (_, n) =>
        `data: ${JSON.stringify({ n, text: n % 3 === 0 ? 'héllo 世界 🚀' : 'x'.repeat(n % 200) })}\n\n`,
    );
    records.push(`data: ${'y'.repeat(100_000)}\n\n`);
    for (const record of records) {
      const bytes = store.stage(record);
      expect(bytes).toBe(Buffer.byteLength(record));
      store.keepStaged(bytes);
    }
    expect(store.count).toBe(records.length);
    expect(Array.from({ length: store.count }, (_, index) => store.at(index))).toEqual(records);
  });

  it('holds only what is kept, and drops the oldest first, answering the weight it was kept with', () => {
    const store = new RecordBytes();
    for (let n = 0; n < 2500; n++) {
      store.stage(`record ${n}`);
      store.keepStaged(n + 1);
      // Staged only: never held, the next record takes its place.
      store.stage('not kept');
    }
    for (let n = 0; n < 2000; n++) expect(store.dropOldest()).toBe(n + 1);
    expect(store.count).toBe(500);
    expect(store.at(0)).toBe('record 2000');
    expect(store.at(499)).toBe('record 2499');
    store.clear();
    expect([store.count, store.dropOldest()]).toEqual([0, 0]);
  });
});
