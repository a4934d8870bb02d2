import type { ResumeEntry } from '@ag-ui/core';
import { ErrorCode } from '../common/error-code';
import type { MessageKey } from '../i18n/message-key';
import type { AppliedResumeDigest, PendingInterruptEntry } from './pending-interrupt';
import { appliedDigestsFor, digestOfEntry } from './applied-digests';
import { expiredIds } from './interrupt-expiry';
import { isPermission, responseSchemaFor } from './response-schemas';

/** Checks a payload against a response schema (`ResponseValidator.validate`, or a fake in tests). */
export type ValidateResponse = (schema: Record<string, unknown>, payload: unknown) => boolean;

type Pending = Record<string, PendingInterruptEntry>;

/** One answer that passed every check, ready to be encoded and sent (docs/behaviour/interrupts.md#forwarding-answers). */
export interface PlannedAnswer {
  interruptId: string;
  entry: PendingInterruptEntry;
  status: ResumeEntry['status'];
  /** What to send: the client's payload, or `{decision: "deny"}` for a cancelled permission (docs/behaviour/interrupts.md#answer-validation). */
  payload: unknown;
  /** Recorded as the applied digest once A2A accepts the answer; from the client's original payload. */
  digest: string;
}

/**
 * The outcome of resume preparation. Every variant carries `pending`: the thread's pending set after
 * entries already applied in this execution were dropped (step 7). The caller persists it when it differs
 * from what is stored; nothing has been sent to A2A in any case.
 */
export type ResumePlan =
  /** RUN_ERROR `code`/`messageKey`. With `expiredIds` (EXECUTION_EXPIRED) the caller expires the execution
   * first: best-effort CancelTask, pending cleared, execution terminal, persisted (docs/behaviour/interrupts.md#expiry). */
  | { kind: 'refused'; code: ErrorCode; messageKey: MessageKey; pending: Pending; expiredIds?: string[] }
  /** Step 10: A2A waits on more than the adapter knew. End with RUN_FINISHED(interrupt) listing every
   * entry of `pending`; send nothing. */
  | { kind: 'interrupt-again'; pending: Pending }
  /** docs/behaviour/interrupts.md#answer-validation "nothing to apply": an exact replay of answers already accepted → RUN_ERROR
   * RESUME_ALREADY_APPLIED, nothing sent again (docs/behaviour/interrupts.md#replay). */
  | { kind: 'already-applied'; pending: Pending }
  /** Send `answers` in this order (`encodeAnswers`, `groupForSending`). */
  | { kind: 'apply'; answers: PlannedAnswer[]; pending: Pending };

export interface PlanResumeArgs {
  /** The pending set after reconciliation with GetTask (`reconcilePending`, docs/behaviour/interrupts.md#resume-preparation step 5). */
  pending: Readonly<Pending>;
  appliedDigests: readonly AppliedResumeDigest[];
  executionId: string;
  /** Ids pending before this request was reconciled: missing answers for these are refused (step 10). */
  pendingBefore: ReadonlySet<string>;
  resume: readonly ResumeEntry[];
  /** `answerDigests(pythonResume)`; an id missing here is hashed from the parsed entry instead. */
  answerDigests: ReadonlyMap<string, string>;
  now: number;
  validate: ValidateResponse;
}

const refused = (code: ErrorCode, messageKey: MessageKey, pending: Pending): ResumePlan => ({
  kind: 'refused',
  code,
  messageKey,
  pending,
});

/**
 * Resume preparation after the preflight (docs/behaviour/interrupts.md#resume-preparation steps 6, 7, 9–12 and docs/behaviour/interrupts.md#answer-validation
 * `_prepare_resume`, `_validate_resume`), as one pure decision. The order of the checks is the original's,
 * and it is observable: a request that is wrong in two ways gets the first error. The Gen A expiry check
 * (step 12) runs where AD-A runs it — right after step 7, before anything else is decided — so an expired
 * execution is reported as expired whatever else is wrong with the answer.
 */
export function planResume(args: PlanResumeArgs): ResumePlan {
  const applied = appliedDigestsFor(args.appliedDigests, args.executionId);
  const step: PlanStep = {
    args,
    applied,
    pending: withoutApplied(args.pending, applied),
    byId: new Map(args.resume.map((entry) => [entry.interruptId, entry])),
    digestOf: (entry) => digestOfEntry(entry, args.answerDigests),
  };
  return (
    refuseDuplicates(step) ??
    refuseChangedAppliedAnswers(step) ??
    expire(step) ??
    refuseAnswersNotPending(step) ??
    refuseMissingAnswers(step) ??
    planAnswers(step)
  );
}

/** What every step reads; `pending` is already without the entries applied in this execution. */
interface PlanStep {
  args: PlanResumeArgs;
  applied: ReadonlyMap<string, string>;
  pending: Pending;
  byId: ReadonlyMap<string, ResumeEntry>;
  digestOf: (entry: ResumeEntry) => string;
}

/** Step 6. */
function refuseDuplicates({ args, byId, pending }: PlanStep): ResumePlan | undefined {
  if (byId.size === args.resume.length) return undefined;
  return refused(ErrorCode.INCOMPLETE_RESUME, 'duplicateInterruptIds', pending);
}

/**
 * Step 7: an entry A2A already accepted stays dropped even if GetTask still shows it (a stale projection);
 * re-answering it differently is refused, re-sending the same answer is harmless.
 */
function refuseChangedAppliedAnswers({
  args,
  applied,
  byId,
  pending,
  digestOf,
}: PlanStep): ResumePlan | undefined {
  for (const id of Object.keys(args.pending)) {
    const recorded = applied.get(id);
    const entry = byId.get(id);
    if (recorded !== undefined && entry !== undefined && digestOf(entry) !== recorded) {
      return refused(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied', pending);
    }
  }
  return undefined;
}

/** Step 12 (Gen A): any deadline passed expires the whole execution (docs/behaviour/interrupts.md#expiry). */
function expire({ args, pending }: PlanStep): ResumePlan | undefined {
  const expired = expiredIds(pending, args.now);
  if (expired.length === 0) return undefined;
  return {
    kind: 'refused',
    code: ErrorCode.EXECUTION_EXPIRED,
    messageKey: 'executionExpired',
    pending: {},
    expiredIds: expired,
  };
}

/** Step 9: an answer to nothing pending is a harmless exact replay, a changed replay, or unknown. */
function refuseAnswersNotPending({ args, applied, pending, digestOf }: PlanStep): ResumePlan | undefined {
  for (const entry of args.resume) {
    if (Object.hasOwn(pending, entry.interruptId)) continue;
    const recorded = applied.get(entry.interruptId);
    if (recorded === undefined) return refused(ErrorCode.UNKNOWN_INTERRUPT, 'unknownInterrupt', pending);
    if (recorded !== digestOf(entry)) {
      return refused(ErrorCode.RESUME_ALREADY_APPLIED, 'responseAlreadyApplied', pending);
    }
  }
  return undefined;
}

/**
 * Step 10: a known interrupt left unanswered is refused; waits only the GetTask of this request revealed
 * end the run with an interrupt listing all of them, before anything is sent.
 */
function refuseMissingAnswers({ args, byId, pending }: PlanStep): ResumePlan | undefined {
  const missing = Object.keys(pending).filter((id) => !byId.has(id));
  if (missing.some((id) => args.pendingBefore.has(id))) {
    return refused(ErrorCode.INCOMPLETE_RESUME, 'incompleteResume', pending);
  }
  return missing.length > 0 ? { kind: 'interrupt-again', pending } : undefined;
}

/** Step 11 / docs/behaviour/interrupts.md#answer-validation: every answer is checked before anything is sent, so a bad one leaves all retryable. */
function planAnswers({ args, pending, digestOf }: PlanStep): ResumePlan {
  const answers: PlannedAnswer[] = [];
  for (const entry of args.resume) {
    const pendingEntry = pending[entry.interruptId];
    if (!pendingEntry) continue;
    const checked = checkAnswer(entry, pendingEntry, args.validate);
    if ('messageKey' in checked)
      return refused(ErrorCode.RESUME_PAYLOAD_INVALID, checked.messageKey, pending);
    answers.push({
      interruptId: entry.interruptId,
      entry: pendingEntry,
      status: entry.status,
      payload: checked.payload,
      digest: digestOf(entry),
    });
  }
  return answers.length === 0 ? { kind: 'already-applied', pending } : { kind: 'apply', answers, pending };
}

/**
 * docs/behaviour/interrupts.md#answer-validation for one answer. A `cancelled` permission means "deny" and is checked as `{decision: "deny"}`; a
 * `resolved` answer needs a payload (absent and null alike) that fits the schema; a cancelled question is
 * not checked, because it cancels the execution (docs/behaviour/interrupts.md#forwarding-answers).
 */
function checkAnswer(
  entry: ResumeEntry,
  pending: PendingInterruptEntry,
  validate: ValidateResponse,
): { payload: unknown } | { messageKey: MessageKey } {
  const isCancelled = entry.status === 'cancelled';
  const permission = isPermission(pending.value);
  const payload: unknown = isCancelled && permission ? { decision: 'deny' } : entry.payload;
  if (!isCancelled && (payload === undefined || payload === null))
    return { messageKey: 'resolvedNeedsPayload' };
  if ((!isCancelled || permission) && !validate(responseSchemaFor(pending.value), payload)) {
    return { messageKey: 'responsePayloadInvalid' };
  }
  return { payload };
}

function withoutApplied(pending: Readonly<Pending>, applied: ReadonlyMap<string, string>): Pending {
  return Object.fromEntries(Object.entries(pending).filter(([id]) => !applied.has(id)));
}
