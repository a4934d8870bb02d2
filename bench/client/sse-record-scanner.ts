/**
 * Splits an SSE byte stream into records without decoding more than it must: the bench client only needs
 * to find `data:` records, read their `type` and the stamps in paced deltas. Latin-1 decoding is enough
 * (every marker is ASCII) and cheaper than UTF-8, which keeps the client from bounding the throughput.
 */
export class SseRecordScanner {
  private carry = '';

  constructor(
    /** `\n\n` for the gateway's AG-UI stream, `\r\n\r\n` for the kernel's frames (proxy and direct). */
    private readonly separator: string,
    private readonly onRecord: (record: string, readUs: number) => void,
  ) {}

  /** Feeds one chunk read at `readUs`; every record it completes shares that read time. */
  push(chunk: Buffer, readUs: number): void {
    const text = this.carry + chunk.toString('latin1');
    let start = 0;
    for (let end = text.indexOf(this.separator); end >= 0; end = text.indexOf(this.separator, start)) {
      this.onRecord(text.slice(start, end), readUs);
      start = end + this.separator.length;
    }
    this.carry = text.slice(start);
  }
}

/** `"type":"X"` of an AG-UI record, or '' when absent. */
export function aguiTypeOf(record: string): string {
  const at = record.indexOf('"type":"');
  if (at < 0) return '';
  const from = at + 8;
  return record.slice(from, record.indexOf('"', from));
}

/** The integer after `marker` (e.g. `ts=`), or undefined. */
export function stampOf(record: string, marker: string): number | undefined {
  const at = record.indexOf(marker);
  if (at < 0) return undefined;
  let value = 0;
  for (let index = at + marker.length; index < record.length; index++) {
    const digit = record.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return value;
}
