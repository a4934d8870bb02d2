import type { ResumeEntry } from '@ag-ui/core';
import type { AppliedResumeDigest } from './pending-interrupt';
import type { PythonJsonValue } from '../wire/python-json-value';
import { answerDigestOf } from './resume-digests';

/**
 * interruptId → applied digest for one execution (docs/behaviour/interrupts.md#replay: answers are keyed by
 * `(executionId, interruptId)`). A later record wins, as in the original's dict.
 */
export function appliedDigestsFor(
  records: readonly AppliedResumeDigest[],
  executionId: string,
): Map<string, string> {
  return new Map(
    records
      .filter((record) => record.executionId === executionId)
      .map((record) => [record.interruptId, record.digest]),
  );
}

/**
 * The digest of a resume entry: from `answerDigests(pythonResume)` when present (Python-exact floats), else
 * hashed from the entry as parsed by JavaScript (exact for every payload without a float such as `1.0`).
 */
export function digestOfEntry(entry: ResumeEntry, answerDigests: ReadonlyMap<string, string>): string {
  return (
    answerDigests.get(entry.interruptId) ??
    answerDigestOf(entry.status, entry.payload as PythonJsonValue | undefined)
  );
}
