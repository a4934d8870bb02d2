import { canonicalDigestOfValue } from '../wire/canonical-digest';
import { isPythonObject, type PythonJsonValue } from '../wire/python-json-value';

/**
 * Digest of one answer, `canonical_digest({"status": status, "payload": payload})` (docs/behaviour/interrupts.md#forwarding-answers, docs/behaviour/state.md#digests).
 * A missing payload is hashed as `null`: Python's ResumeEntry model reads an absent `payload` as None, and
 * `json.dumps` writes None as null — so `{status}` and `{status, payload: null}` are the same answer.
 */
export function answerDigestOf(status: string, payload: PythonJsonValue | undefined): string {
  return canonicalDigestOfValue({ status, payload: payload ?? null });
}

/**
 * interruptId → answer digest for every entry of the request's `resume`, as Python parsed it
 * (`RunRequest.pythonResume`) so a client's `1.0` is hashed as `1.0` and digests match state files written by
 * the original.
 * Entries without a string `interruptId` are skipped (the envelope DTO refuses them before this runs). An
 * id given twice maps to its digest when both occurrences agree and to `''` — which equals no recorded
 * digest — when they differ, so "every entry equals its applied digest" (docs/behaviour/interrupts.md#resume-preparation step 1) reads the same as
 * in the original, which compared each entry.
 */
export function answerDigests(pythonResume: PythonJsonValue | undefined): Map<string, string> {
  const digests = new Map<string, string>();
  if (!Array.isArray(pythonResume)) return digests;
  for (const entry of pythonResume) {
    if (!isPythonObject(entry) || typeof entry.interruptId !== 'string') continue;
    const status = typeof entry.status === 'string' ? entry.status : String(entry.status);
    const digest = answerDigestOf(status, entry.payload);
    const previous = digests.get(entry.interruptId);
    digests.set(entry.interruptId, previous === undefined || previous === digest ? digest : '');
  }
  return digests;
}
