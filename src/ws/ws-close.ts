/** RFC 6455 close codes used here (docs/behaviour/agentcore.md#websocket). */
export const WsCloseCode = {
  NORMAL: 1000,
  GOING_AWAY: 1001,
  UNSUPPORTED_DATA: 1003,
  SERVER_ERROR: 1011,
} as const;

/** A close reason is at most 123 bytes of UTF-8. */
const MAX_CLOSE_REASON_BYTES = 123;

/** The message cut to the 123 bytes a close frame allows, between characters. */
export function closeReason(message: string): string {
  let reason = message;
  while (Buffer.byteLength(reason, 'utf8') > MAX_CLOSE_REASON_BYTES)
    reason = [...reason].slice(0, -1).join('');
  return reason;
}
