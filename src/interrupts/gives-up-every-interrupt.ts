import type { ResumeEntry } from '@ag-ui/core';

/**
 * A resume whose every entry is `status: "cancelled"` gives its interrupts up. On an execution that has
 * already ended or expired there is nothing left to cancel, so such a resume succeeds without a call to
 * A2A: clients (HttpAgent) keep an interrupt until a run finishes and refuse every new run meanwhile, so an
 * error here would leave them stuck (docs/clients.md "Interrupts and resume"). An empty `resume` gives nothing up.
 */
export function givesUpEveryInterrupt(resume: readonly ResumeEntry[]): boolean {
  return resume.length > 0 && resume.every((entry) => entry.status === 'cancelled');
}
