import type { ResumeEntry } from '@ag-ui/core';
import { givesUpEveryInterrupt } from './gives-up-every-interrupt';

const cancelled = (interruptId: string): ResumeEntry => ({ interruptId, status: 'cancelled' });
const resolved = (interruptId: string): ResumeEntry => ({
  interruptId,
  status: 'resolved',
  payload: { decision: 'allow_once' },
});

describe('givesUpEveryInterrupt', () => {
  it.each([
    { name: 'one cancelled entry', resume: [cancelled('permission-1')], expected: true },
    { name: 'every entry cancelled', resume: [cancelled('a'), cancelled('b')], expected: true },
    {
      name: 'a resolved entry among cancelled ones',
      resume: [cancelled('a'), resolved('b')],
      expected: false,
    },
    { name: 'only resolved entries', resume: [resolved('a')], expected: false },
    { name: 'an empty resume', resume: [], expected: false },
  ])('$name → $expected', ({ resume, expected }) => {
    expect(givesUpEveryInterrupt(resume)).toBe(expected);
  });
});
