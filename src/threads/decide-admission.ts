import { ErrorCode } from '../common/error-code';
import type { MessageKey } from '../i18n/message-key';
import { earliestExpiry } from '../interrupts/interrupt-expiry';
import { contextIdForThread } from './thread-context-id';
import { mayActOnThread } from './thread-access';
import { withExecutionTerminal } from './terminal-execution';
import type { ThreadExecution, ThreadState } from './thread-state';

/** What admission needs to know about one run request, already validated and resolved (docs/behaviour/state.md#admission steps 1–2). */
export interface AdmissionRequest {
  threadId: string;
  runId: string;
  /** `canonicalDigest` of the raw request body (docs/behaviour/state.md#digests). */
  digest: string;
  /** The resolved workspace (`resolveCwd`), compared verbatim with the thread's binding. */
  cwd: string;
  userId: string | null;
  /** The authenticated caller's principal; undefined when anonymous (see `mayActOnThread`). */
  principal?: string;
  rosInvocationId: string;
  /** The body has a `resume` array (any list, even empty, makes it a resume — docs/behaviour/run-input.md#resume-requests). */
  isResume: boolean;
  /** The registry's in-memory active-run slot for this thread is taken (never persisted, docs/behaviour/state.md#admission step 5). */
  isThreadBusy: boolean;
  /**
   * `forwardedProps.iacCode.activeGuidance`: the run only adds user input to the live Pipeline task. It
   * needs one (else EXECUTION_LOST), never takes the active-run slot and never rotates the execution.
   */
  isGuidance?: boolean;
  /** `runMode` is `pipeline`: a guidance run is refused for any other mode, as the published adapter does. */
  isPipelineMode?: boolean;
  /** The id a new or rotated execution gets (from `Clock.uuid()`). */
  newExecutionId: string;
  /**
   * Generic clients mode (IAC_CODE_AGUI_GENERIC_CLIENTS): a resume may reuse the runId of the run that raised
   * the pending interrupts, as CopilotKit's `useInterrupt` does; it is then recorded under `internalRunId`.
   */
  acceptsInterruptedRunId?: boolean;
  /** A fresh id (from `Clock.uuid()`) for such a resume; unused otherwise. */
  internalRunId?: string;
  /**
   * The AgentCore session of the request, passed only when IAC_CODE_AGUI_SESSION_BINDING is on (`null`:
   * the request named none). A thread is bound to the first session it sees and then refuses another
   * one, or none at all (THREAD_BINDING_CONFLICT): a missing header must not open a bound thread.
   */
  agentCoreSessionId?: string | null;
}

export type AdmissionRefusalKey = Extract<
  MessageKey,
  'runIdUsed' | 'threadBusy' | 'threadBindingConflict' | 'resumeRequired' | 'executionGone' | 'resumeMismatch'
>;

export interface AdmissionRefusal {
  kind: 'refused';
  code: ErrorCode;
  messageKey: AdmissionRefusalKey;
}

export interface AdmissionGranted {
  kind: 'admitted';
  /** The state to persist before the response starts (docs/behaviour/state.md#admission step 9); the run must not start if that fails. */
  state: ThreadState;
  isNewThread: boolean;
  /** The execution a new normal turn replaced (docs/behaviour/state.md#admission step 8), now listed as terminal. */
  rotatedExecutionId?: string;
  /**
   * Set when a resume reused the runId of the interrupted run: the run is recorded in `runDigests` and holds
   * the thread's slot under this id, while its events carry the client's runId (docs/clients.md "Interrupts and resume").
   */
  internalRunId?: string;
  /**
   * Set when the replaced execution still had pending interrupts whose `expiresAt` had passed (seed
   * expiry, docs/architecture.md#decisions): the caller cancels this A2A task best-effort, as the expiry
   * timer would have done (docs/behaviour/interrupts.md#expiry Gen A).
   */
  expiredTaskId?: string;
  /**
   * Set when the replaced execution, not expired, still had a task bound: its run never ended it (the
   * gateway stopped between the kernel asking for input and the interrupt being written, or mid-turn), so
   * the kernel task may still be waiting. The caller cancels it best effort, so nothing is orphaned.
   */
  staleTaskId?: string;
}

export type AdmissionDecision = AdmissionRefusal | AdmissionGranted;

/**
 * The admission rules of docs/behaviour/state.md#admission, steps 3–9, in their order (which decides the error code a
 * client sees when several apply). Pure: `state` is never modified; a refusal changes nothing, so
 * "roll back everything" on a failed write (step 9) means dropping `decision.state`.
 * Guidance runs follow the published adapter 0.16.0: lost on an unknown thread, idempotent by run id,
 * not held back by an active run (that run is the one they guide), bound like any run.
 */
export function decideAdmission(
  state: ThreadState | undefined,
  request: AdmissionRequest,
  now: number,
): AdmissionDecision {
  if (state === undefined) {
    // Step 3: nothing to resume, or to guide, on a thread we have never seen.
    if (request.isResume || request.isGuidance) return refuse(ErrorCode.EXECUTION_LOST, 'executionGone');
    if (request.isThreadBusy) return refuse(ErrorCode.THREAD_BUSY, 'threadBusy');
    return { kind: 'admitted', state: recordRun(newThreadState(request), request), isNewThread: true };
  }
  // Before any other rule, so another caller learns nothing of the thread (not its run ids, not whether
  // it is busy): docs/behaviour/state.md#caller-binding.
  if (!mayActOnThread(state, request.principal))
    return refuse(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict');
  // Step 4: run ids are idempotency keys that survive restarts (docs/behaviour/interrupts.md#replay). Own keys only: a runId of
  // "__proto__" must not find Object.prototype.
  if (Object.hasOwn(state.runDigests, request.runId)) {
    if (state.runDigests[request.runId] === request.digest)
      return refuse(ErrorCode.DUPLICATE_RUN_ID, 'runIdUsed');
    if (!resumesInterruptedRun(state, request) || request.internalRunId === undefined)
      return refuse(ErrorCode.RUN_ID_CONFLICT, 'runIdUsed');
    const decision = decideAdmission(state, { ...request, runId: request.internalRunId }, now);
    return decision.kind === 'admitted' ? { ...decision, internalRunId: request.internalRunId } : decision;
  }
  if (request.isThreadBusy && !request.isGuidance) return refuse(ErrorCode.THREAD_BUSY, 'threadBusy'); // step 5
  if (isBoundElsewhere(state, request))
    return refuse(ErrorCode.THREAD_BINDING_CONFLICT, 'threadBindingConflict');
  const bound = bindAgentCoreSession(state, request);
  if (request.isGuidance) {
    // Step 7, guidance: into the live Pipeline task of the current execution, which stays as it is.
    const isLive = !request.isResume && request.isPipelineMode === true && state.execution.taskId !== null;
    if (!isLive) return refuse(ErrorCode.EXECUTION_LOST, 'executionGone');
    if (Object.keys(state.execution.pending).length > 0)
      return refuse(ErrorCode.RESUME_REQUIRED, 'resumeRequired');
    return { kind: 'admitted', state: recordRun(bound, request), isNewThread: false };
  }
  if (request.isResume) {
    // Step 7: a resume continues the interrupted execution; no rotation.
    if (request.rosInvocationId !== state.execution.rosInvocationId)
      return refuse(ErrorCode.EXECUTION_LOST, 'resumeMismatch');
    return { kind: 'admitted', state: recordRun(bound, request), isNewThread: false };
  }
  const pendingExpiry = earliestExpiry(state.execution.pending);
  const hasExpired = pendingExpiry !== undefined && pendingExpiry <= now;
  if (Object.keys(state.execution.pending).length > 0 && !hasExpired)
    return refuse(ErrorCode.RESUME_REQUIRED, 'resumeRequired');
  // Step 8: a new normal turn on an existing thread gets a new execution in the same A2A context and
  // iac-code session.
  const rotated = rotateExecution(bound, request);
  const boundTaskId = state.execution.taskId ?? undefined;
  return {
    kind: 'admitted',
    state: recordRun(rotated, request),
    isNewThread: false,
    rotatedExecutionId: state.execution.executionId,
    ...(boundTaskId === undefined
      ? {}
      : hasExpired
        ? { expiredTaskId: boundTaskId }
        : { staleTaskId: boundTaskId }),
  };
}

/**
 * CopilotKit's `useInterrupt` resumes with the runId of the run that raised the interrupts, which that run
 * already used (its digest differs). In generic clients mode such a resume is a new run of its own; the
 * strict rule (RUN_ID_CONFLICT) stays otherwise. The id stays on the execution until a new turn rotates it,
 * so a retried resume is judged by the resume rules (RESUME_ALREADY_APPLIED, …), as with a fresh runId.
 */
function resumesInterruptedRun(state: ThreadState, request: AdmissionRequest): boolean {
  return (
    request.isResume &&
    request.acceptsInterruptedRunId === true &&
    state.execution.interruptedRunId === request.runId
  );
}

function refuse(code: ErrorCode, messageKey: AdmissionRefusalKey): AdmissionRefusal {
  return { kind: 'refused', code, messageKey };
}

function newThreadState(request: AdmissionRequest): ThreadState {
  return {
    schemaVersion: 1,
    threadId: request.threadId,
    contextId: contextIdForThread(request.threadId),
    cwd: request.cwd,
    userId: request.userId,
    ...(request.principal !== undefined ? { principal: request.principal } : {}),
    iacCodeSessionId: null,
    ...(typeof request.agentCoreSessionId === 'string'
      ? { agentCoreSessionId: request.agentCoreSessionId }
      : {}),
    execution: {
      executionId: request.newExecutionId,
      rosInvocationId: request.rosInvocationId,
      taskId: null,
      lastTaskId: null,
      pipelineSequence: 0,
      pipelineOpenSteps: [],
      textSnapshotDigests: [],
      pending: {},
    },
    runDigests: {},
    appliedResumeDigests: [],
    terminalExecutionIds: [],
  };
}

/**
 * Step 6: `null` vs a value is a mismatch too; so is another AgentCore session than the bound one, or no
 * session on a bound thread (fail closed).
 */
function isBoundElsewhere(state: ThreadState, request: AdmissionRequest): boolean {
  if (state.cwd !== request.cwd || state.userId !== request.userId) return true;
  const boundSession = state.agentCoreSessionId ?? null;
  return (
    request.agentCoreSessionId !== undefined &&
    boundSession !== null &&
    boundSession !== request.agentCoreSessionId
  );
}

function bindAgentCoreSession(state: ThreadState, request: AdmissionRequest): ThreadState {
  if (typeof request.agentCoreSessionId !== 'string' || (state.agentCoreSessionId ?? null) !== null)
    return state;
  return { ...state, agentCoreSessionId: request.agentCoreSessionId };
}

/**
 * docs/behaviour/state.md#admission step 8 with the old execution made terminal as at the end of a run (docs/behaviour/events.md#run-lifecycle step 7): listed in
 * `terminalExecutionIds`, its task id kept as `lastTaskId`. Unknown execution keys ride along.
 */
function rotateExecution(state: ThreadState, request: AdmissionRequest): ThreadState {
  const ended = withExecutionTerminal(state);
  const { interruptedRunId: _replaced, ...old } = ended.execution;
  return {
    ...ended,
    execution: {
      ...withoutEndReason(old),
      executionId: request.newExecutionId,
      rosInvocationId: request.rosInvocationId,
      pipelineSequence: 0,
      pipelineOpenSteps: [],
      textSnapshotDigests: [],
    },
  };
}

/** Why the old execution ended says nothing about the new one. */
function withoutEndReason(execution: ThreadExecution): ThreadExecution {
  const copy = { ...execution };
  delete copy.endReason;
  return copy;
}

function recordRun(state: ThreadState, request: AdmissionRequest): ThreadState {
  return { ...state, runDigests: { ...state.runDigests, [request.runId]: request.digest } };
}
