import { formatKernelDataFrame, formatKernelPing } from './kernel-sse-frames';

describe('kernel SSE framing', () => {
  it.each([
    { name: 'object', json: { jsonrpc: '2.0', id: 1, result: { task: { id: 't' } } } },
    { name: 'text with newlines stays on one line', json: { text: 'a\nb\r\nc' } },
  ])('data frame ($name): compact JSON, CRLF CRLF', ({ json }) => {
    const frame = formatKernelDataFrame(json);
    expect(frame).toBe(`data: ${JSON.stringify(json)}\r\n\r\n`);
    expect(frame.slice(0, -4)).not.toMatch(/[\r\n]/);
  });

  it('ping is an SSE comment with the ISO datetime, CRLF CRLF', () => {
    expect(formatKernelPing(Date.UTC(2026, 10, 30, 5, 6, 7, 89))).toBe(
      ': ping - 2026-11-30T05:06:07.089Z\r\n\r\n',
    );
  });
});
