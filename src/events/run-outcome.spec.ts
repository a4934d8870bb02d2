import { ErrorCode } from '../common/error-code';
import { decideOutcome, isStopState } from './run-outcome';

describe('decideOutcome', () => {
  const failed = { kind: 'error', code: ErrorCode.A2A_EXECUTION_FAILED, messageKey: 'a2aExecutionFailed' };
  it.each([
    { state: 'completed', outcome: { kind: 'success' } },
    { state: 'input-required', outcome: { kind: 'success' } },
    {
      state: 'canceled',
      outcome: { kind: 'error', code: ErrorCode.CANCELLED, messageKey: 'executionCancelled' },
    },
    {
      state: 'cancelled',
      outcome: { kind: 'error', code: ErrorCode.CANCELLED, messageKey: 'executionCancelled' },
    },
    { state: 'failed', outcome: failed },
    { state: 'rejected', outcome: failed },
    { state: 'auth-required', outcome: failed },
    { state: 'working', outcome: failed },
    { state: 'submitted', outcome: failed },
    { state: undefined, outcome: failed },
  ])('$state → $outcome.kind', ({ state, outcome }) => expect(decideOutcome(state)).toEqual(outcome));
});

describe('isStopState', () => {
  it.each([
    { state: 'failed', stop: true },
    { state: 'rejected', stop: true },
    { state: 'auth-required', stop: true },
    { state: 'canceled', stop: true },
    { state: 'completed', stop: true },
    { state: 'input-required', stop: true },
    { state: 'working', stop: false },
    { state: 'submitted', stop: false },
    { state: 'TASK_STATE_COMPLETED', stop: false },
    { state: undefined, stop: false },
  ])('$state → $stop', ({ state, stop }) => expect(isStopState(state)).toBe(stop));
});
