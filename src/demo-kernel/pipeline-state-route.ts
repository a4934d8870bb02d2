import type { KernelRouteAnswer } from './kernel-session-restore';
import type { PipelineJournal } from './pipeline-journal';

/**
 * `GET /iac-code/pipeline/state?taskId=…&afterSequence=N` (docs/behaviour/a2a.md#transport, docs/behaviour/events.md#pipeline-recovery): the snapshot and the
 * envelopes after N; 404 when the task has no Pipeline, as the kernel answers.
 */
export function answerPipelineState(journal: PipelineJournal, query: URLSearchParams): KernelRouteAnswer {
  const taskId = query.get('taskId');
  const after = query.get('afterSequence') ?? '0';
  const afterSequence = /^\d+$/.test(after) ? Number(after) : Number.NaN;
  if (!taskId || !Number.isSafeInteger(afterSequence)) {
    return {
      status: 400,
      body: {
        error: { code: 'INVALID_REQUEST', message: 'taskId and a non-negative afterSequence are required.' },
      },
    };
  }
  const state = journal.stateOf(taskId, afterSequence);
  return state ? { status: 200, body: state } : { status: 404, body: { detail: 'Not Found' } };
}
