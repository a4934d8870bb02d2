import type { PendingInterruptEntry } from './pending-interrupt';
import { earliestExpiry, expiredIds, expiresAtFor } from './interrupt-expiry';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const entry = (inputId: string, expiresAt?: string): PendingInterruptEntry => ({
  value: { inputId },
  sideband: false,
  ...(expiresAt ? { expiresAt } : {}),
});

describe('expiresAtFor', () => {
  it.each([
    { ttl: 540, expected: '2026-01-01T00:09:00.000Z' },
    { ttl: 1, expected: '2026-01-01T00:00:01.000Z' },
    { ttl: 0, expected: undefined },
    { ttl: -5, expected: undefined },
  ])('ttl $ttl → $expected', ({ ttl, expected }) => {
    expect(expiresAtFor(NOW, ttl)).toBe(expected);
  });
});

describe('expiredIds and earliestExpiry', () => {
  const pending = {
    late: entry('late', '2026-01-01T00:09:00.000Z'),
    never: entry('never'),
    // The original wrote Python isoformat() with microseconds; those files must still read.
    python: entry('python', '2026-01-01T00:05:00.123456Z'),
  };

  it.each([
    { name: 'before any deadline', now: NOW, expected: [] },
    { name: 'exactly at a deadline', now: Date.parse('2026-01-01T00:05:00.123Z'), expected: ['python'] },
    { name: 'after every deadline', now: Date.parse('2026-01-01T01:00:00Z'), expected: ['late', 'python'] },
  ])('$name', ({ now, expected }) => {
    expect(expiredIds(pending, now)).toEqual(expected);
  });

  it('gives the earliest deadline in ms, or undefined when nothing expires', () => {
    expect(earliestExpiry(pending)).toBe(Date.parse('2026-01-01T00:05:00.123Z'));
    expect(earliestExpiry({ never: entry('never') })).toBeUndefined();
    expect(earliestExpiry({})).toBeUndefined();
  });
});
