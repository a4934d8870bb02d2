/**
 * The longest string the gateway accepts for each field it stores, logs or forwards (docs/behaviour/bounds.md):
 * every one is checked before any work is done and refused with 400 INVALID_INPUT. Lengths are counted in
 * characters (code points), as class-validator's `MaxLength` and the original's Python `len` count.
 */
export const STRING_BOUNDS = {
  /** `threadId`, `runId`, `parentRunId`, message, part, tool-call and interrupt ids. */
  id: 1024,
  /** `rosInvocationId` (the original's own limit). */
  rosInvocationId: 256,
  /** `userId`, `channel`, `model`, `preferredLanguage`, `pipelineName`, `thinking.effort`, `protocolVersion`, names. */
  text: 1024,
  /** `llmApiKey`, `alibabaCloud.*` and `llmHeaders` values: forwarded only, long STS tokens included. */
  secret: 8192,
  /** An `llmHeaders` name (HTTP header names are short; the kernel passes them on as they are). */
  headerName: 256,
  /** Kernel-provided text kept in a thread's state (an interrupt's prompt, summary, options). */
  storedText: 65_536,
} as const;

/** At most this many `llmHeaders` entries. */
export const MAX_LLM_HEADERS = 64;

/**
 * Whether `value` has more than `max` code points, without copying it when its UTF-16 length decides
 * (a code point is one or two units): a 4 MiB string is refused by its length alone.
 */
export function exceedsCodePoints(value: string, max: number): boolean {
  if (value.length <= max) return false;
  if (value.length > 2 * max) return true;
  let count = 0;
  for (const _ of value) if (++count > max) return true;
  return false;
}
