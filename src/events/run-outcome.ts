// A2A spells it `canceled`; `cancelled` is accepted too so a lenient upstream cannot turn it into a failure.
export const CANCELED_STATES: ReadonlySet<string> = new Set(['canceled', 'cancelled']);
const STOP_STATES = new Set([
  'failed',
  'rejected',
  'auth-required',
  'completed',
  'input-required',
  ...CANCELED_STATES,
]);

/**
 * Whether the run stops reading the A2A stream after a frame in this (normalised) state (docs/behaviour/events.md#run-lifecycle
 * step 4). `input-required` stops too: with inputs the run interrupts, without them the turn is over.
 */
export function isStopState(state: string | undefined): boolean {
  return state !== undefined && STOP_STATES.has(state);
}
