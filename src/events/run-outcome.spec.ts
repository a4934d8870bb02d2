import { isStopState } from './run-outcome';

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
