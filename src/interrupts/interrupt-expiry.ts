import type { PendingInterruptEntry } from './pending-interrupt';

/**
 * `expiresAt` for an interrupt announced at `now` (docs/architecture.md#decisions: Gen A expiry, docs/behaviour/interrupts.md#expiry):
 * now + IAC_CODE_AGUI_INTERRUPT_TTL seconds as ISO-8601 UTC with `Z`; undefined when the TTL is 0 (no
 * adapter-side expiry, an extension of the original), and so for any non-positive TTL.
 */
export function expiresAtFor(now: number, ttlSeconds: number): string | undefined {
  if (!(ttlSeconds > 0)) return undefined;
  return new Date(now + ttlSeconds * 1000).toISOString();
}

/** Ids of the pending entries whose `expiresAt` is at or before `now`, in insertion order. */
export function expiredIds(pending: Readonly<Record<string, PendingInterruptEntry>>, now: number): string[] {
  return Object.entries(pending)
    .filter(([, entry]) => {
      const at = expiryOf(entry);
      return at !== undefined && at <= now;
    })
    .map(([id]) => id);
}

/**
 * The earliest `expiresAt` among the pending entries, in epoch ms, or undefined when none expires. The
 * original armed one timer at this instant and, when it fired, expired the whole execution (docs/behaviour/interrupts.md#expiry).
 */
export function earliestExpiry(pending: Readonly<Record<string, PendingInterruptEntry>>): number | undefined {
  let earliest: number | undefined;
  for (const entry of Object.values(pending)) {
    const at = expiryOf(entry);
    if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
  }
  return earliest;
}

function expiryOf(entry: PendingInterruptEntry): number | undefined {
  if (entry.expiresAt === undefined) return undefined;
  const at = Date.parse(entry.expiresAt);
  // The state loader refuses unparsable values (docs/behaviour/state.md#the-document); an entry built in memory is skipped, not fatal.
  return Number.isNaN(at) ? undefined : at;
}
