/**
 * AgentCore closes a WebSocket with 1009 when a frame is over 32 KB (docs/behaviour/agentcore.md), and
 * a MESSAGES_SNAPSHOT or a large tool result easily is. A larger text message therefore goes out as one
 * text frame plus continuation frames (RFC 6455 §5.4), each payload at most this many bytes: 1 KiB under
 * 32 KiB, so even with the 14-byte frame header a frame stays under 32 KB by either definition.
 */
export const MAX_FRAME_PAYLOAD_BYTES = 31 * 1024;

/**
 * The UTF-8 bytes of `text` in pieces of at most `maxBytes`, cut only between characters: a receiver
 * validates the reassembled message, but a cut character would also trip clients that decode per frame.
 */
export function splitUtf8Frame(text: string, maxBytes: number = MAX_FRAME_PAYLOAD_BYTES): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return [bytes];
  const pieces: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + maxBytes, bytes.length);
    // Step back over continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
    while (end < bytes.length && end > start && (bytes[end] & 0xc0) === 0x80) end--;
    pieces.push(bytes.subarray(start, end));
    start = end;
  }
  return pieces;
}
