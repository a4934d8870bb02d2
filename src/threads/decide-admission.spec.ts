import { ErrorCode } from '../common/error-code';
import { deepFreeze } from '../config/deep-freeze';
import { decideAdmission, type AdmissionDecision, type AdmissionRequest } from './decide-admission';
import { contextIdForThread } from './thread-context-id';
import type { ThreadState } from './thread-state';

// agui- + sha256('thread-1')[:40], the Python adapter's `_context_id` (computed with hashlib).
const CONTEXT_OF_THREAD_1 = 'agui-4b0a5fefc328e6b9257bc535e3c5d26fec36b52f';
const NOW = Date.parse('2026-01-01T00:05:00Z');
const DIGEST_1 = '1'.repeat(64);
const DIGEST_2 = '2'.repeat(64);

function existingState(overrides: Partial<ThreadState> = {}): ThreadState {
  return {
    schemaVersion: 1,
    threadId: 'thread-1',
    contextId: contextIdForThread('thread-1'),
    cwd: '/ws',
    userId: 'user-1',
    iacCodeSessionId: 'session-1',
    execution: {
      executionId: 'exec-1',
      rosInvocationId: 'inv-1',
      taskId: 'task-1',
      lastTaskId: null,
      pipelineSequence: 4,
      pipelineOpenSteps: ['step:a'],
      textSnapshotDigests: ['f'.repeat(64)],
      pending: {},
      futureExecutionField: 'kept',
    } as ThreadState['execution'],
    runDigests: { 'run-1': DIGEST_1 },
    appliedResumeDigests: [{ executionId: 'exec-0', interruptId: 'p-0', digest: 'x' }],
    terminalExecutionIds: ['exec-0'],
    futureField: { kept: true },
    ...overrides,
  } as ThreadState;
}

const PENDING = {
  'permission-1': { value: { inputId: 'permission-1', kind: 'permission' }, sideband: false },
};
const withPending = (expiresAt?: string) =>
  existingState({
    execution: {
      ...existingState().execution,
      pending: { 'permission-1': { ...PENDING['permission-1'], ...(expiresAt ? { expiresAt } : {}) } },
    },
  });

function request(overrides: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    threadId: 'thread-1',
    runId: 'run-2',
    digest: DIGEST_2,
    cwd: '/ws',
    userId: 'user-1',
    rosInvocationId: 'inv-2',
    isResume: false,
    isThreadBusy: false,
    newExecutionId: 'exec-2',
    ...overrides,
  };
}

const refusal = (code: ErrorCode, messageKey: string): AdmissionDecision =>
  ({ kind: 'refused', code, messageKey }) as AdmissionDecision;

// docs/behaviour/state.md#admission steps 3–9; the order of the rows' conditions is the order of the steps.
const refusalRows: {
  name: string;
  state: ThreadState | undefined;
  request: AdmissionRequest;
  expected: AdmissionDecision;
}[] = [
  {
    name: 'resume on an unknown thread → EXECUTION_LOST (step 3)',
    state: undefined,
    request: request({ isResume: true }),
    expected: refusal(ErrorCode.EXECUTION_LOST, 'executionGone'),
  },
  {
    name: 'unknown thread with a taken run slot → THREAD_BUSY',
    state: undefined,
    request: request({ isThreadBusy: true }),
    expected: refusal(ErrorCode.THREAD_BUSY, 'threadBusy'),
  },
  {
    name: 'another principal on the thread → THREAD_BINDING_CONFLICT, before its run ids or its slot are told',
    state: existingState({ principal: 'bob' }),
    request: request({ principal: 'alice', runId: 'run-1', digest: DIGEST_1, isThreadBusy: true }),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: "another principal writing the owner's userId → THREAD_BINDING_CONFLICT",
    state: existingState({ principal: 'user-1' }),
    request: request({ principal: 'alice', userId: 'user-1' }),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: 'an anonymous caller on a thread with a principal → THREAD_BINDING_CONFLICT (fail closed)',
    state: existingState({ principal: 'bob' }),
    request: request(),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: 'same runId, same digest → DUPLICATE_RUN_ID (step 4)',
    state: existingState(),
    request: request({ runId: 'run-1', digest: DIGEST_1 }),
    expected: refusal(ErrorCode.DUPLICATE_RUN_ID, 'runIdUsed'),
  },
  {
    name: 'same runId, other digest → RUN_ID_CONFLICT (step 4)',
    state: existingState(),
    request: request({ runId: 'run-1' }),
    expected: refusal(ErrorCode.RUN_ID_CONFLICT, 'runIdUsed'),
  },
  {
    name: 'duplicate run id wins over a busy thread and another workspace',
    state: existingState(),
    request: request({ runId: 'run-1', digest: DIGEST_1, isThreadBusy: true, cwd: '/other' }),
    expected: refusal(ErrorCode.DUPLICATE_RUN_ID, 'runIdUsed'),
  },
  {
    name: 'active run → THREAD_BUSY (step 5)',
    state: existingState(),
    request: request({ isThreadBusy: true }),
    expected: refusal(ErrorCode.THREAD_BUSY, 'threadBusy'),
  },
  {
    name: 'busy wins over a binding conflict',
    state: existingState(),
    request: request({ isThreadBusy: true, userId: 'user-2' }),
    expected: refusal(ErrorCode.THREAD_BUSY, 'threadBusy'),
  },
  {
    name: 'other resolved cwd → THREAD_BINDING_CONFLICT (step 6)',
    state: existingState(),
    request: request({ cwd: '/ws/sub' }),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: 'null userId against a bound user → THREAD_BINDING_CONFLICT',
    state: existingState(),
    request: request({ userId: null }),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: 'a user against a thread bound to null → THREAD_BINDING_CONFLICT',
    state: existingState({ userId: null }),
    request: request(),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: 'another AgentCore session → THREAD_BINDING_CONFLICT',
    state: existingState({ agentCoreSessionId: 'acs-1' }),
    request: request({ agentCoreSessionId: 'acs-2' }),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: 'no AgentCore session on a thread bound to one → THREAD_BINDING_CONFLICT',
    state: existingState({ agentCoreSessionId: 'acs-1' }),
    request: request({ agentCoreSessionId: null }),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: 'binding conflict wins over a resume mismatch',
    state: withPending(),
    request: request({ isResume: true, cwd: '/other', rosInvocationId: 'inv-9' }),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: 'resume with another rosInvocationId → EXECUTION_LOST (step 7, docs/behaviour/run-input.md#resume-requests)',
    state: withPending(),
    request: request({ isResume: true, rosInvocationId: 'inv-9' }),
    expected: refusal(ErrorCode.EXECUTION_LOST, 'resumeMismatch'),
  },
  {
    name: 'new turn while an interrupt waits → RESUME_REQUIRED (step 7)',
    state: withPending(),
    request: request(),
    expected: refusal(ErrorCode.RESUME_REQUIRED, 'resumeRequired'),
  },
  {
    name: 'new turn while an unexpired interrupt waits → RESUME_REQUIRED',
    state: withPending('2026-01-01T00:05:00.001Z'),
    request: request(),
    expected: refusal(ErrorCode.RESUME_REQUIRED, 'resumeRequired'),
  },
  // Guidance runs, as the published adapter 0.16.0 admits them.
  {
    name: 'guidance on an unknown thread → EXECUTION_LOST',
    state: undefined,
    request: request({ isGuidance: true, isPipelineMode: true }),
    expected: refusal(ErrorCode.EXECUTION_LOST, 'executionGone'),
  },
  {
    name: 'guidance with a used run id → DUPLICATE_RUN_ID, busy thread or not',
    state: existingState(),
    request: request({
      isGuidance: true,
      isPipelineMode: true,
      runId: 'run-1',
      digest: DIGEST_1,
      isThreadBusy: true,
    }),
    expected: refusal(ErrorCode.DUPLICATE_RUN_ID, 'runIdUsed'),
  },
  {
    name: 'guidance from another workspace → THREAD_BINDING_CONFLICT',
    state: existingState(),
    request: request({ isGuidance: true, isPipelineMode: true, cwd: '/other' }),
    expected: refusal(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict'),
  },
  {
    name: 'guidance outside pipeline mode → EXECUTION_LOST',
    state: existingState(),
    request: request({ isGuidance: true, isPipelineMode: false }),
    expected: refusal(ErrorCode.EXECUTION_LOST, 'executionGone'),
  },
  {
    name: 'guidance with a resume → EXECUTION_LOST',
    state: existingState(),
    request: request({ isGuidance: true, isPipelineMode: true, isResume: true }),
    expected: refusal(ErrorCode.EXECUTION_LOST, 'executionGone'),
  },
  {
    name: 'guidance when the execution has no live task → EXECUTION_LOST',
    state: existingState({ execution: { ...existingState().execution, taskId: null } }),
    request: request({ isGuidance: true, isPipelineMode: true, isThreadBusy: true }),
    expected: refusal(ErrorCode.EXECUTION_LOST, 'executionGone'),
  },
  {
    name: 'guidance while an interrupt waits → RESUME_REQUIRED',
    state: withPending(),
    request: request({ isGuidance: true, isPipelineMode: true }),
    expected: refusal(ErrorCode.RESUME_REQUIRED, 'resumeRequired'),
  },
];

describe('decideAdmission refusals', () => {
  it.each(refusalRows)('$name', ({ state, request: input, expected }) => {
    expect(decideAdmission(state && deepFreeze(state), input, NOW)).toEqual(expected);
  });
});

describe('decideAdmission admissions', () => {
  it('binds a new thread (step 3) and records the run digest (step 9)', () => {
    const decision = decideAdmission(
      undefined,
      request({ runId: 'run-1', digest: DIGEST_1, userId: null }),
      NOW,
    );
    expect(decision).toEqual({
      kind: 'admitted',
      isNewThread: true,
      state: {
        schemaVersion: 1,
        threadId: 'thread-1',
        contextId: CONTEXT_OF_THREAD_1,
        cwd: '/ws',
        userId: null,
        iacCodeSessionId: null,
        execution: {
          executionId: 'exec-2',
          rosInvocationId: 'inv-2',
          taskId: null,
          lastTaskId: null,
          pipelineSequence: 0,
          pipelineOpenSteps: [],
          textSnapshotDigests: [],
          pending: {},
        },
        runDigests: { 'run-1': DIGEST_1 },
        appliedResumeDigests: [],
        terminalExecutionIds: [],
      },
    });
  });

  it('admits a resume on the same execution, without rotation (step 7)', () => {
    const state = deepFreeze(withPending());
    const decision = decideAdmission(state, request({ isResume: true, rosInvocationId: 'inv-1' }), NOW);
    expect(decision).toEqual({
      kind: 'admitted',
      isNewThread: false,
      state: { ...state, runDigests: { 'run-1': DIGEST_1, 'run-2': DIGEST_2 } },
    });
  });

  it('rotates the execution on a new normal turn, keeping context, session and unknown keys (step 8)', () => {
    const state = deepFreeze(existingState());
    const decision = decideAdmission(state, request(), NOW);
    expect(decision).toEqual({
      kind: 'admitted',
      isNewThread: false,
      rotatedExecutionId: 'exec-1',
      // Its run never unbound task-1 (it would have, ending normally): the task is named for cancelling.
      staleTaskId: 'task-1',
      state: {
        ...state,
        execution: {
          executionId: 'exec-2',
          rosInvocationId: 'inv-2',
          taskId: null,
          lastTaskId: 'task-1',
          pipelineSequence: 0,
          pipelineOpenSteps: [],
          textSnapshotDigests: [],
          pending: {},
          futureExecutionField: 'kept',
        },
        runDigests: { 'run-1': DIGEST_1, 'run-2': DIGEST_2 },
        terminalExecutionIds: ['exec-0', 'exec-1'],
      },
    });
    if (decision.kind !== 'admitted') throw new Error('unreachable');
    expect(decision.state.contextId).toBe(state.contextId);
    expect(decision.state.iacCodeSessionId).toBe('session-1');
    expect(decision.state).toHaveProperty('futureField', { kept: true });
  });

  it('keeps lastTaskId when the old execution had already ended, and lists it once', () => {
    const state = deepFreeze(
      existingState({
        execution: { ...existingState().execution, taskId: null, lastTaskId: 'task-0' },
        terminalExecutionIds: ['exec-0', 'exec-1'],
      }),
    );
    const decision = decideAdmission(state, request(), NOW);
    expect(decision).toMatchObject({
      kind: 'admitted',
      state: {
        execution: { lastTaskId: 'task-0', taskId: null },
        terminalExecutionIds: ['exec-0', 'exec-1'],
      },
    });
    // Nothing is bound any more, so there is nothing to cancel.
    expect(decision).not.toHaveProperty('staleTaskId');
    expect(decision).not.toHaveProperty('expiredTaskId');
  });

  it.each([
    { name: 'while the guided run streams', isThreadBusy: true },
    { name: 'between runs of a live task', isThreadBusy: false },
  ])('admits guidance into the live task $name: run recorded, execution untouched', ({ isThreadBusy }) => {
    const state = deepFreeze(existingState());
    const decision = decideAdmission(
      state,
      request({ isGuidance: true, isPipelineMode: true, isThreadBusy }),
      NOW,
    );
    expect(decision).toEqual({
      kind: 'admitted',
      isNewThread: false,
      state: { ...state, runDigests: { 'run-1': DIGEST_1, 'run-2': DIGEST_2 } },
    });
  });

  it('does not carry why the old execution ended over to the new one', () => {
    const state = deepFreeze(
      existingState({
        execution: { ...existingState().execution, taskId: null, endReason: 'expired' },
        terminalExecutionIds: ['exec-0', 'exec-1'],
      }),
    );
    const decision = decideAdmission(state, request(), NOW);
    if (decision.kind !== 'admitted') throw new Error('expected an admission');
    expect(decision.state.execution).not.toHaveProperty('endReason');
    expect(decision.state.execution).toHaveProperty('futureExecutionField', 'kept');
  });

  it('treats an interrupt past its expiresAt as expired: rotates and names the task to cancel (docs/behaviour/interrupts.md#expiry Gen A)', () => {
    const decision = decideAdmission(deepFreeze(withPending('2026-01-01T00:05:00Z')), request(), NOW);
    expect(decision).toMatchObject({
      kind: 'admitted',
      rotatedExecutionId: 'exec-1',
      expiredTaskId: 'task-1',
      state: {
        execution: { executionId: 'exec-2', pending: {} },
        terminalExecutionIds: ['exec-0', 'exec-1'],
      },
    });
  });

  it('binds the first AgentCore session it sees', () => {
    const fresh = decideAdmission(undefined, request({ agentCoreSessionId: 'acs-1' }), NOW);
    expect(fresh).toMatchObject({ state: { agentCoreSessionId: 'acs-1' } });
    const adopted = decideAdmission(
      deepFreeze(existingState()),
      request({ agentCoreSessionId: 'acs-1' }),
      NOW,
    );
    expect(adopted).toMatchObject({ state: { agentCoreSessionId: 'acs-1' } });
    const same = decideAdmission(
      deepFreeze(existingState({ agentCoreSessionId: 'acs-1' })),
      request({ agentCoreSessionId: 'acs-1' }),
      NOW,
    );
    expect(same.kind).toBe('admitted');
  });

  it('leaves a thread unbound when binding is on but the request names no session', () => {
    const fresh = decideAdmission(undefined, request({ agentCoreSessionId: null }), NOW);
    expect(fresh.kind).toBe('admitted');
    expect(fresh.kind === 'admitted' && 'agentCoreSessionId' in fresh.state).toBe(false);
    const unbound = decideAdmission(deepFreeze(existingState()), request({ agentCoreSessionId: null }), NOW);
    expect(unbound.kind).toBe('admitted');
    expect(unbound.kind === 'admitted' && 'agentCoreSessionId' in unbound.state).toBe(false);
  });

  it("binds a new thread to its caller's principal, and admits that principal's next turn", () => {
    const opened = decideAdmission(undefined, request({ principal: 'alice' }), NOW);
    if (opened.kind !== 'admitted') throw new Error('refused');
    expect(opened.state.principal).toBe('alice');
    const next = decideAdmission(opened.state, request({ principal: 'alice', runId: 'run-3' }), NOW);
    expect(next).toMatchObject({ kind: 'admitted', state: { principal: 'alice' } });
  });

  it('keeps a thread without a principal open to any caller, as before principals existed', () => {
    const anonymous = decideAdmission(undefined, request(), NOW);
    if (anonymous.kind !== 'admitted') throw new Error('refused');
    expect('principal' in anonymous.state).toBe(false);
    for (const state of [anonymous.state, existingState(), existingState({ principal: null })]) {
      const decision = decideAdmission(state, request({ principal: 'alice', runId: 'run-3' }), NOW);
      expect(decision.kind).toBe('admitted');
      if (decision.kind === 'admitted') expect(decision.state.principal ?? null).toBeNull();
    }
  });

  it('does not mistake Object.prototype for a recorded runId', () => {
    const decision = decideAdmission(deepFreeze(existingState()), request({ runId: '__proto__' }), NOW);
    expect(decision.kind).toBe('admitted');
    if (decision.kind !== 'admitted') throw new Error('unreachable');
    expect(Object.hasOwn(decision.state.runDigests, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(decision.state.runDigests)).toBe(Object.prototype);
  });
});

// CopilotKit's useInterrupt resumes with the runId of the run that raised the interrupts ("run-1" here).
describe('decideAdmission of a resume that reuses the interrupted run id', () => {
  const interrupted = () =>
    deepFreeze(
      existingState({
        execution: { ...withPending().execution, interruptedRunId: 'run-1' } as ThreadState['execution'],
      }),
    );
  const reusing = (overrides: Partial<AdmissionRequest> = {}) =>
    request({
      runId: 'run-1',
      isResume: true,
      rosInvocationId: 'inv-1',
      acceptsInterruptedRunId: true,
      internalRunId: 'resume-internal-1',
      ...overrides,
    });

  it('admits it in generic clients mode under the internal id, recording that id', () => {
    const state = interrupted();
    expect(decideAdmission(state, reusing(), NOW)).toEqual({
      kind: 'admitted',
      isNewThread: false,
      internalRunId: 'resume-internal-1',
      state: { ...state, runDigests: { 'run-1': DIGEST_1, 'resume-internal-1': DIGEST_2 } },
    });
  });

  it.each([
    {
      name: 'strict mode keeps RUN_ID_CONFLICT',
      state: interrupted(),
      input: reusing({ acceptsInterruptedRunId: false }),
      expected: refusal(ErrorCode.RUN_ID_CONFLICT, 'runIdUsed'),
    },
    {
      name: 'the same request again is still DUPLICATE_RUN_ID',
      state: interrupted(),
      input: reusing({ digest: DIGEST_1 }),
      expected: refusal(ErrorCode.DUPLICATE_RUN_ID, 'runIdUsed'),
    },
    {
      name: 'a normal turn reusing that runId is RUN_ID_CONFLICT',
      state: interrupted(),
      input: reusing({ isResume: false }),
      expected: refusal(ErrorCode.RUN_ID_CONFLICT, 'runIdUsed'),
    },
    {
      name: 'another used runId than the interrupted run is RUN_ID_CONFLICT',
      state: deepFreeze(
        existingState({
          execution: { ...withPending().execution, interruptedRunId: 'run-0' } as ThreadState['execution'],
        }),
      ),
      input: reusing(),
      expected: refusal(ErrorCode.RUN_ID_CONFLICT, 'runIdUsed'),
    },
    {
      name: 'the later checks still apply (a run is active → THREAD_BUSY)',
      state: interrupted(),
      input: reusing({ isThreadBusy: true }),
      expected: refusal(ErrorCode.THREAD_BUSY, 'threadBusy'),
    },
  ])('$name', ({ state, input, expected }) => {
    expect(decideAdmission(state, input, NOW)).toEqual(expected);
  });

  it('forgets the interrupted run id when a new turn rotates the execution', () => {
    const state = deepFreeze(
      existingState({
        execution: { ...existingState().execution, interruptedRunId: 'run-1' } as ThreadState['execution'],
      }),
    );
    const decision = decideAdmission(state, request(), NOW);
    if (decision.kind !== 'admitted') throw new Error('unreachable');
    expect(decision.state.execution).not.toHaveProperty('interruptedRunId');
    expect(decision.state.execution).toHaveProperty('futureExecutionField', 'kept');
  });
});
