/**
 * The kernel's SSE framing (docs/behaviour/a2a.md#the-kernels-own-behaviour): sse-starlette ends every record with CRLF CRLF
 * and sends `: ping - <datetime>` comments in silences. The gateway's reader must cope with both, so the
 * scripted kernel writes them exactly, not with the `\n\n` of the a2a-js SDK.
 */
export const KERNEL_SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** `data: <compact JSON>\r\n\r\n`. */
export function formatKernelDataFrame(json: unknown): string {
  return `data: ${JSON.stringify(json)}\r\n\r\n`;
}

/** `: ping - <ISO datetime>\r\n\r\n`, for `nowMs` in Unix epoch milliseconds. */
export function formatKernelPing(nowMs: number): string {
  return `: ping - ${new Date(nowMs).toISOString()}\r\n\r\n`;
}
