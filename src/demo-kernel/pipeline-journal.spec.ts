import { pipelineEnvelope } from './pipeline-envelopes';
import { PipelineJournal } from './pipeline-journal';
import { answerPipelineState } from './pipeline-state-route';

const ids = { taskId: 'task-1', contextId: 'ctx-1', sessionId: 'session-1' };
const envelope = (sequence: number, eventType: string, data: Record<string, unknown> = {}) =>
  pipelineEnvelope(ids, 'run-1', sequence, { eventType, scope: 'pipeline', data });

describe('PipelineJournal and the state route', () => {
  let journal: PipelineJournal;
  beforeEach(() => {
    journal = new PipelineJournal();
    journal.record('task-1', [
      envelope(1, 'pipeline_started', { pipelineRunId: 'run-1' }),
      envelope(2, 'step_started'),
    ]);
    journal.record('task-1', [envelope(3, 'text_delta', { text: 'hi' })]);
  });

  it.each([
    { after: 0, sequences: [1, 2, 3] },
    { after: 2, sequences: [3] },
    { after: 3, sequences: [] },
  ])('after $after → $sequences, with a running snapshot', ({ after, sequences }) => {
    const state = journal.stateOf('task-1', after)!;
    expect(state.snapshot).toEqual({
      pipelineRunId: 'run-1',
      status: 'running',
      lastSequence: 3,
      iacCodeSessionId: 'session-1',
    });
    expect(state.events.map((event) => event.sequence)).toEqual(sequences);
  });

  it('pipeline_completed marks the snapshot completed', () => {
    journal.record('task-1', [envelope(4, 'pipeline_completed')]);
    expect(journal.stateOf('task-1', 0)!.snapshot).toMatchObject({ status: 'completed', lastSequence: 4 });
  });

  it('a task without envelopes has no Pipeline; without pipelineRunId the id derives from the task', () => {
    expect(journal.stateOf('task-2', 0)).toBeUndefined();
    journal.record('task-2', [envelope(1, 'step_started')]);
    expect(journal.stateOf('task-2', 0)!.snapshot.pipelineRunId).toBe('pipeline-task-2');
  });

  it.each([
    { name: 'known task', query: 'taskId=task-1&afterSequence=1', status: 200 },
    { name: 'no afterSequence', query: 'taskId=task-1', status: 200 },
    { name: 'unknown task', query: 'taskId=task-9&afterSequence=0', status: 404 },
    { name: 'no taskId', query: 'afterSequence=0', status: 400 },
    { name: 'negative', query: 'taskId=task-1&afterSequence=-1', status: 400 },
    { name: 'fraction', query: 'taskId=task-1&afterSequence=1.5', status: 400 },
  ])('route: $name → $status', ({ query, status }) => {
    expect(answerPipelineState(journal, new URLSearchParams(query)).status).toBe(status);
  });

  it('route body is the snapshot and the events after the sequence', () => {
    const answer = answerPipelineState(journal, new URLSearchParams('taskId=task-1&afterSequence=2'));
    expect(answer.body).toEqual(journal.stateOf('task-1', 2));
  });

  it('reached: resolves at once for a published sequence, else when a later record publishes it', async () => {
    const signal = new AbortController().signal;
    await journal.reached('task-1', 3, signal);
    let isReached = false;
    const waiting = journal.reached('task-1', 5, signal).then(() => (isReached = true));
    journal.record('task-1', [envelope(4, 'text_delta')]);
    await Promise.resolve();
    expect(isReached).toBe(false);
    journal.record('task-1', [envelope(5, 'text_delta')]);
    await waiting;
    expect(isReached).toBe(true);
  });

  it('reached: an abort ends the wait without the sequence', async () => {
    const gone = new AbortController();
    const waiting = journal.reached('task-9', 1, gone.signal);
    gone.abort();
    await expect(waiting).resolves.toBeUndefined();
    expect(journal.stateOf('task-9', 0)).toBeUndefined();
  });
});
