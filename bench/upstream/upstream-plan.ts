/**
 * What the bench upstream streams for one request, chosen by the user message text so the same request
 * works through the gateway (which forwards the text as the A2A text part), the proxy and directly:
 *   `burst <deltas>`          every delta as fast as the reader takes them (write back-pressure respected)
 *   `paced <perSecond> <deltas>` one delta at a time on a drift-free schedule, each stamped when written
 *   `every <ms> <deltas>`     like paced, one delta every `ms` (the concurrent paced-runs scenario)
 *   `silent`                  the opening frames, then nothing until CancelTask or the reader leaves
 */
export type UpstreamPlan =
  | { readonly kind: 'burst'; readonly deltas: number }
  | { readonly kind: 'paced'; readonly intervalMs: number; readonly deltas: number }
  | { readonly kind: 'silent' };

export function parseUpstreamPlan(text: string): UpstreamPlan | undefined {
  const [word, first, second] = text.trim().split(/\s+/);
  const a = Number(first);
  const b = Number(second);
  switch (word) {
    case 'burst':
      return isCount(a) ? { kind: 'burst', deltas: a } : undefined;
    case 'paced':
      return a > 0 && isCount(b) ? { kind: 'paced', intervalMs: 1000 / a, deltas: b } : undefined;
    case 'every':
      return a > 0 && isCount(b) ? { kind: 'paced', intervalMs: a, deltas: b } : undefined;
    case 'silent':
      return { kind: 'silent' };
    default:
      return undefined;
  }
}

function isCount(value: number): boolean {
  return Number.isInteger(value) && value > 0;
}

/** The user message text that selects a plan (what the client puts in `messages[0].content`). */
export function planText(plan: UpstreamPlan): string {
  if (plan.kind === 'burst') return `burst ${plan.deltas}`;
  if (plan.kind === 'paced') return `every ${plan.intervalMs} ${plan.deltas}`;
  return 'silent';
}
