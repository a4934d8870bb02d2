import { ErrorCode } from '../common/error-code';
import type { MessageKey } from '../i18n/message-key';

export type RunOutcome = { kind: 'success' } | { kind: 'error'; code: ErrorCode; messageKey: MessageKey };

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

/**
 * The terminal event after the stream, from the last non-empty state (docs/behaviour/events.md#run-lifecycle step 5): a completed
 * task or an input-required turn without structured input is a success; anything else — failed, rejected,
 * auth-required, a stream that ended while working, no state at all — is an execution failure.
 */
export function decideOutcome(lastState: string | undefined): RunOutcome {
  if (lastState === 'completed' || lastState === 'input-required') return { kind: 'success' };
  if (lastState !== undefined && CANCELED_STATES.has(lastState)) {
    return { kind: 'error', code: ErrorCode.CANCELLED, messageKey: 'executionCancelled' };
  }
  return { kind: 'error', code: ErrorCode.A2A_EXECUTION_FAILED, messageKey: 'a2aExecutionFailed' };
}
