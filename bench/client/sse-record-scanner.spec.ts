import { aguiTypeOf, SseRecordScanner, stampOf } from './sse-record-scanner';

function scan(separator: string, chunks: string[]): [string, number][] {
  const records: [string, number][] = [];
  const scanner = new SseRecordScanner(separator, (record, readUs) => records.push([record, readUs]));
  chunks.forEach((chunk, index) => scanner.push(Buffer.from(chunk, 'latin1'), index));
  return records;
}

describe('SseRecordScanner', () => {
  it.each([
    {
      name: 'LF records split across chunks keep the read time of the chunk that completes them',
      separator: '\n\n',
      chunks: ['data: {"type":"A"}\n\nda', 'ta: {"type":"B"}\n', '\n: heartbeat\n\n'],
      expected: [
        ['data: {"type":"A"}', 0],
        ['data: {"type":"B"}', 2],
        [': heartbeat', 2],
      ],
    },
    {
      name: 'CRLF records, the last one incomplete',
      separator: '\r\n\r\n',
      chunks: ['data: 1\r\n\r\ndata: 2\r\n', '\r\ndata: 3'],
      expected: [
        ['data: 1', 0],
        ['data: 2', 1],
      ],
    },
  ])('$name', ({ separator, chunks, expected }) => {
    expect(scan(separator, chunks)).toEqual(expected);
  });
});

describe('aguiTypeOf / stampOf', () => {
  it.each([
    {
      record: 'data: {"type":"TEXT_MESSAGE_CONTENT","delta":"ts=17 s=12 "}',
      type: 'TEXT_MESSAGE_CONTENT',
      ts: 17,
      s: 12,
    },
    { record: 'data: {"delta":"x"}', type: '', ts: undefined, s: undefined },
  ])('$record', ({ record, type, ts, s }) => {
    expect(aguiTypeOf(record)).toBe(type);
    expect(stampOf(record, 'ts=')).toBe(ts);
    expect(stampOf(record, ' s=')).toBe(s);
  });
});
