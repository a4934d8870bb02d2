import { SystemClock } from './clock';

describe('SystemClock', () => {
  it('returns integer milliseconds and v4 uuids', () => {
    const clock = new SystemClock();
    expect(Number.isInteger(clock.now())).toBe(true);
    expect(clock.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
