import type { ResumeEntry } from '@ag-ui/core';
import { ErrorCode } from '../common/error-code';
import { planLostExecution } from './plan-lost-execution';
import { answerDigestOf } from './resume-digests';

const ALLOW: ResumeEntry = {
  interruptId: 'permission-1',
  status: 'resolved',
  payload: { decision: 'allow_once' },
};
const ALLOW_DIGEST = answerDigestOf('resolved', { decision: 'allow_once' });
const ALREADY = { code: ErrorCode.RESUME_ALREADY_APPLIED, messageKey: 'responseAlreadyApplied' };
const LOST = { code: ErrorCode.EXECUTION_LOST, messageKey: 'taskToResumeUnavailable' };
const EXPIRED = { code: ErrorCode.EXECUTION_EXPIRED, messageKey: 'executionExpired' };

describe('planLostExecution', () => {
  it.each([
    {
      name: 'an exact replay of an accepted answer',
      resume: [ALLOW],
      executionId: 'exec-1',
      digests: new Map(),
      expected: ALREADY,
    },
    {
      name: 'a changed answer',
      resume: [{ ...ALLOW, payload: { decision: 'deny' } }],
      executionId: 'exec-1',
      digests: new Map(),
      expected: LOST,
    },
    {
      name: 'an answer recorded for another execution',
      resume: [ALLOW],
      executionId: 'exec-2',
      digests: new Map(),
      expected: LOST,
    },
    { name: 'an empty resume', resume: [], executionId: 'exec-1', digests: new Map(), expected: LOST },
    {
      name: 'one replayed and one unknown entry',
      resume: [ALLOW, { interruptId: 'other', status: 'cancelled' as const }],
      executionId: 'exec-1',
      digests: new Map(),
      expected: LOST,
    },
    {
      name: 'a repeated id whose occurrences differ',
      resume: [ALLOW, ALLOW],
      executionId: 'exec-1',
      digests: new Map([['permission-1', '']]),
      expected: LOST,
    },
    {
      name: 'a new answer for an execution whose interrupts expired',
      resume: [{ ...ALLOW, payload: { decision: 'deny' } }],
      executionId: 'exec-1',
      digests: new Map(),
      isExpired: true,
      expected: EXPIRED,
    },
    {
      name: 'an exact replay on an execution that expired later',
      resume: [ALLOW],
      executionId: 'exec-1',
      digests: new Map(),
      isExpired: true,
      expected: ALREADY,
    },
  ])('$name', ({ resume, executionId, digests, expected, isExpired = false }) => {
    expect(
      planLostExecution({
        appliedDigests: [{ executionId: 'exec-1', interruptId: 'permission-1', digest: ALLOW_DIGEST }],
        executionId,
        resume,
        answerDigests: digests,
        isExpired,
      }),
    ).toEqual(expected);
  });
});
