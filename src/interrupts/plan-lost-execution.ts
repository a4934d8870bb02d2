import type { ResumeEntry } from '@ag-ui/core';
import { ErrorCode } from '../common/error-code';
import type { MessageKey } from '../i18n/message-key';
import type { AppliedResumeDigest } from './pending-interrupt';
import { appliedDigestsFor, digestOfEntry } from './applied-digests';

export interface LostExecutionRefusal {
  code: ErrorCode.RESUME_ALREADY_APPLIED | ErrorCode.EXECUTION_EXPIRED | ErrorCode.EXECUTION_LOST;
  messageKey: MessageKey;
}

/**
 * docs/behaviour/interrupts.md#resume-preparation step 1, for a resume that finds no bound task or nothing pending (before any A2A call):
 * when every entry repeats the answer recorded for this execution, the client is retrying an accepted
 * resume → RESUME_ALREADY_APPLIED, and nothing runs again; otherwise the task is gone: EXECUTION_EXPIRED
 * when its interrupts expired (the same answer as before the expiry was applied, so it does not depend on
 * when the client asks or on a restart), else EXECUTION_LOST. An empty `resume` is never a replay.
 */
export function planLostExecution(args: {
  appliedDigests: readonly AppliedResumeDigest[];
  executionId: string;
  resume: readonly ResumeEntry[];
  answerDigests: ReadonlyMap<string, string>;
  /** The execution ended because its interrupts expired. */
  isExpired: boolean;
}): LostExecutionRefusal {
  const applied = appliedDigestsFor(args.appliedDigests, args.executionId);
  const isReplay =
    args.resume.length > 0 &&
    args.resume.every((entry) => applied.get(entry.interruptId) === digestOfEntry(entry, args.answerDigests));
  if (isReplay) return { code: ErrorCode.RESUME_ALREADY_APPLIED, messageKey: 'responseAlreadyApplied' };
  return args.isExpired
    ? { code: ErrorCode.EXECUTION_EXPIRED, messageKey: 'executionExpired' }
    : { code: ErrorCode.EXECUTION_LOST, messageKey: 'taskToResumeUnavailable' };
}
