import type { ResumeEntry } from '@ag-ui/core';
import { ErrorCode } from '../common/error-code';
import type { PendingInterruptEntry } from './pending-interrupt';
import { answerDigestOf } from './resume-digests';
import { planResume, type PlanResumeArgs, type ResumePlan } from './resume-plan';
import { ResponseValidator } from './response-validator';

const NOW = Date.parse('2026-01-01T00:05:00Z');
const LATER = '2026-01-01T00:09:00.000Z';
const EARLIER = '2026-01-01T00:04:59.000Z';
const validator = new ResponseValidator();

const PERMISSION: PendingInterruptEntry = {
  value: { kind: 'permission', requestTaskId: 'task-1', inputId: 'permission-1', toolUseId: 'tool-1' },
  sideband: false,
  expiresAt: LATER,
};
const PERMISSION_2: PendingInterruptEntry = {
  value: { kind: 'permission', requestTaskId: 'task-1', inputId: 'permission-2', toolUseId: 'tool-2' },
  sideband: true,
  expiresAt: LATER,
};
const QUESTION: PendingInterruptEntry = {
  value: {
    kind: 'ask_user_question',
    inputId: 'ask-1',
    toolUseId: 'ask-1',
    options: [
      { id: 'plan-a', label: 'Plan A' },
      { id: 'plan-b', label: 'Plan B' },
    ],
  },
  sideband: false,
};

const ALLOW: ResumeEntry = {
  interruptId: 'permission-1',
  status: 'resolved',
  payload: { decision: 'allow_once' },
};
const ALLOW_DIGEST = answerDigestOf('resolved', { decision: 'allow_once' });
const applied = (interruptId: string, digest: string, executionId = 'exec-1') => ({
  executionId,
  interruptId,
  digest,
});

function args(overrides: Partial<PlanResumeArgs>): PlanResumeArgs {
  const pending = overrides.pending ?? { 'permission-1': PERMISSION };
  return {
    pending,
    appliedDigests: [],
    executionId: 'exec-1',
    pendingBefore: new Set(Object.keys(pending)),
    resume: [ALLOW],
    answerDigests: new Map(),
    now: NOW,
    validate: (schema, payload) => validator.validate(schema, payload),
    ...overrides,
  };
}

const refused = (
  code: ErrorCode,
  messageKey: string,
  pending: Record<string, PendingInterruptEntry>,
): ResumePlan => ({ kind: 'refused', code, messageKey, pending }) as ResumePlan;

const planCases: { name: string; args: PlanResumeArgs; expected: ResumePlan }[] = [
  {
    name: 'a valid permission answer is applied',
    args: args({}),
    expected: {
      kind: 'apply',
      answers: [
        {
          interruptId: 'permission-1',
          entry: PERMISSION,
          status: 'resolved',
          payload: { decision: 'allow_once' },
          digest: ALLOW_DIGEST,
        },
      ],
      pending: { 'permission-1': PERMISSION },
    },
  },
  {
    name: 'a cancelled permission is sent as deny, its digest taken from the original payload',
    args: args({ resume: [{ interruptId: 'permission-1', status: 'cancelled' }] }),
    expected: {
      kind: 'apply',
      answers: [
        {
          interruptId: 'permission-1',
          entry: PERMISSION,
          status: 'cancelled',
          payload: { decision: 'deny' },
          digest: answerDigestOf('cancelled', null),
        },
      ],
      pending: { 'permission-1': PERMISSION },
    },
  },
  {
    name: 'a cancelled question is planned unvalidated (it cancels the execution)',
    args: args({
      pending: { 'ask-1': QUESTION },
      resume: [{ interruptId: 'ask-1', status: 'cancelled', payload: { whatever: true } }],
    }),
    expected: {
      kind: 'apply',
      answers: [
        {
          interruptId: 'ask-1',
          entry: QUESTION,
          status: 'cancelled',
          payload: { whatever: true },
          digest: answerDigestOf('cancelled', { whatever: true }),
        },
      ],
      pending: { 'ask-1': QUESTION },
    },
  },
  {
    name: 'an empty resume is incomplete',
    args: args({ resume: [] }),
    expected: refused(ErrorCode.INCOMPLETE_RESUME, 'incompleteResume', { 'permission-1': PERMISSION }),
  },
  {
    name: 'duplicate ids are refused first, before an unknown id',
    args: args({ resume: [ALLOW, ALLOW, { interruptId: 'nope', status: 'cancelled' }] }),
    expected: refused(ErrorCode.INCOMPLETE_RESUME, 'duplicateInterruptIds', { 'permission-1': PERMISSION }),
  },
  {
    name: 'an unknown id is refused, before another answer is validated',
    args: args({
      resume: [
        { interruptId: 'permission-1', status: 'resolved', payload: { decision: 'allow' } },
        { interruptId: 'nope', status: 'cancelled' },
      ],
    }),
    expected: refused(ErrorCode.UNKNOWN_INTERRUPT, 'unknownInterrupt', { 'permission-1': PERMISSION }),
  },
  {
    name: 'an applied digest of another execution does not make an id known',
    args: args({
      resume: [ALLOW, { interruptId: 'old-1', status: 'cancelled' }],
      appliedDigests: [applied('old-1', answerDigestOf('cancelled', null), 'exec-0')],
    }),
    expected: refused(ErrorCode.UNKNOWN_INTERRUPT, 'unknownInterrupt', { 'permission-1': PERMISSION }),
  },
  {
    name: '{"decision":"allow"} is an invalid payload, the interrupt stays pending',
    args: args({
      resume: [{ interruptId: 'permission-1', status: 'resolved', payload: { decision: 'allow' } }],
    }),
    expected: refused(ErrorCode.RESUME_PAYLOAD_INVALID, 'responsePayloadInvalid', {
      'permission-1': PERMISSION,
    }),
  },
  {
    name: 'a resolved answer with a null payload',
    args: args({ resume: [{ interruptId: 'permission-1', status: 'resolved', payload: null }] }),
    expected: refused(ErrorCode.RESUME_PAYLOAD_INVALID, 'resolvedNeedsPayload', {
      'permission-1': PERMISSION,
    }),
  },
  {
    name: 'a resolved answer without a payload',
    args: args({ pending: { 'ask-1': QUESTION }, resume: [{ interruptId: 'ask-1', status: 'resolved' }] }),
    expected: refused(ErrorCode.RESUME_PAYLOAD_INVALID, 'resolvedNeedsPayload', { 'ask-1': QUESTION }),
  },
  {
    name: 'an exact replay after acceptance is already applied, nothing pending',
    args: args({
      pending: {},
      pendingBefore: new Set(),
      appliedDigests: [applied('permission-1', ALLOW_DIGEST)],
    }),
    expected: { kind: 'already-applied', pending: {} },
  },
  {
    name: 'an exact replay against a stale GetTask drops the applied entry and is already applied',
    args: args({ appliedDigests: [applied('permission-1', ALLOW_DIGEST)] }),
    expected: { kind: 'already-applied', pending: {} },
  },
  {
    name: 'a replay recognised through the raw-body digest (a float payload)',
    args: args({
      pending: {},
      pendingBefore: new Set(),
      appliedDigests: [applied('permission-1', 'python-digest-of-1.0')],
      answerDigests: new Map([['permission-1', 'python-digest-of-1.0']]),
    }),
    expected: { kind: 'already-applied', pending: {} },
  },
  {
    name: 'a changed answer to an applied, no longer pending interrupt',
    args: args({
      pending: {},
      pendingBefore: new Set(),
      appliedDigests: [applied('permission-1', ALLOW_DIGEST)],
      resume: [{ interruptId: 'permission-1', status: 'cancelled' }],
    }),
    expected: refused(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied', {}),
  },
  {
    name: 'a changed answer to an applied interrupt a stale GetTask still shows (step 7)',
    args: args({
      appliedDigests: [applied('permission-1', ALLOW_DIGEST)],
      resume: [{ interruptId: 'permission-1', status: 'cancelled' }],
    }),
    expected: refused(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied', {}),
  },
  {
    name: 'a stale applied entry is dropped and the next one applied',
    args: args({
      pending: { 'permission-1': PERMISSION, 'permission-2': PERMISSION_2 },
      pendingBefore: new Set(['permission-2']),
      appliedDigests: [applied('permission-1', ALLOW_DIGEST)],
      resume: [{ interruptId: 'permission-2', status: 'resolved', payload: { decision: 'deny' } }],
    }),
    expected: {
      kind: 'apply',
      answers: [
        {
          interruptId: 'permission-2',
          entry: PERMISSION_2,
          status: 'resolved',
          payload: { decision: 'deny' },
          digest: answerDigestOf('resolved', { decision: 'deny' }),
        },
      ],
      pending: { 'permission-2': PERMISSION_2 },
    },
  },
  {
    name: 'the same old answer while a new interrupt waits is incomplete',
    args: args({
      pending: { 'ask-1': QUESTION },
      appliedDigests: [applied('permission-1', ALLOW_DIGEST)],
    }),
    expected: refused(ErrorCode.INCOMPLETE_RESUME, 'incompleteResume', { 'ask-1': QUESTION }),
  },
  {
    name: 'a changed old answer while a new interrupt waits is already applied',
    args: args({
      pending: { 'ask-1': QUESTION },
      appliedDigests: [applied('permission-1', ALLOW_DIGEST)],
      resume: [{ interruptId: 'permission-1', status: 'cancelled' }],
    }),
    expected: refused(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied', { 'ask-1': QUESTION }),
  },
  {
    name: 'waits A2A has beyond the known ones end the run with an interrupt, nothing sent',
    args: args({
      pending: { 'permission-1': PERMISSION, 'permission-2': PERMISSION_2 },
      pendingBefore: new Set(['permission-1']),
    }),
    expected: {
      kind: 'interrupt-again',
      pending: { 'permission-1': PERMISSION, 'permission-2': PERMISSION_2 },
    },
  },
  {
    name: 'an expired interrupt ends the execution, even with an invalid answer',
    args: args({
      pending: { 'permission-1': { ...PERMISSION, expiresAt: EARLIER }, 'ask-1': QUESTION },
      resume: [{ interruptId: 'permission-1', status: 'resolved', payload: { decision: 'allow' } }],
    }),
    expected: {
      kind: 'refused',
      code: ErrorCode.EXECUTION_EXPIRED,
      messageKey: 'executionExpired',
      pending: {},
      expiredIds: ['permission-1'],
    },
  },
  {
    name: 'an expired interrupt ends the execution before an unknown id or a missing answer is refused',
    args: args({
      pending: { 'permission-1': { ...PERMISSION, expiresAt: EARLIER } },
      resume: [{ interruptId: 'nope', status: 'cancelled' }],
    }),
    expected: {
      kind: 'refused',
      code: ErrorCode.EXECUTION_EXPIRED,
      messageKey: 'executionExpired',
      pending: {},
      expiredIds: ['permission-1'],
    },
  },
  {
    name: 'a deadline exactly now has expired',
    args: args({ pending: { 'permission-1': { ...PERMISSION, expiresAt: new Date(NOW).toISOString() } } }),
    expected: {
      kind: 'refused',
      code: ErrorCode.EXECUTION_EXPIRED,
      messageKey: 'executionExpired',
      pending: {},
      expiredIds: ['permission-1'],
    },
  },
  {
    name: 'a question and a permission answered together keep resume order',
    args: args({
      pending: { 'permission-2': PERMISSION_2, 'ask-1': QUESTION },
      resume: [
        { interruptId: 'ask-1', status: 'resolved', payload: { selectedId: 'plan-b' } },
        { interruptId: 'permission-2', status: 'resolved', payload: { decision: 'allow_once' } },
      ],
    }),
    expected: {
      kind: 'apply',
      answers: [
        {
          interruptId: 'ask-1',
          entry: QUESTION,
          status: 'resolved',
          payload: { selectedId: 'plan-b' },
          digest: answerDigestOf('resolved', { selectedId: 'plan-b' }),
        },
        {
          interruptId: 'permission-2',
          entry: PERMISSION_2,
          status: 'resolved',
          payload: { decision: 'allow_once' },
          digest: ALLOW_DIGEST,
        },
      ],
      pending: { 'permission-2': PERMISSION_2, 'ask-1': QUESTION },
    },
  },
];

describe('planResume', () => {
  it.each(planCases)('$name', ({ args: planArgs, expected }) => {
    expect(planResume(planArgs)).toEqual(expected);
  });

  it('never calls the validator before the earlier checks pass', () => {
    const validate = jest.fn(() => true);
    planResume(args({ resume: [ALLOW, ALLOW], validate }));
    expect(validate).not.toHaveBeenCalled();
  });

  it('does not mutate the pending set it was given', () => {
    const pending = { 'permission-1': PERMISSION, 'permission-2': PERMISSION_2 };
    planResume(args({ pending, appliedDigests: [applied('permission-1', ALLOW_DIGEST)] }));
    expect(Object.keys(pending)).toEqual(['permission-1', 'permission-2']);
  });
});
