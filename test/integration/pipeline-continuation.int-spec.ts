import { EventType, type BaseEvent } from '@ag-ui/core';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type {
  SelectionBoundary,
  SelectionContinuation,
} from '../../src/demo-kernel/pipeline-selection-script';
import {
  callsFor,
  countByMethod,
  interruptIdsOf,
  KERNEL_TOKEN,
  lastOf,
  pipelineGatewayEnv,
  pipelineResume,
  pipelineTurn,
  readThreadFile,
  runThrough,
  stepBalanceProblems,
  taskIdOf,
  textOf,
  upstreamTaskState,
} from '../support/pipeline-run-checks';
import { eventually } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';
import type { Json } from '../support/interrupt-helpers';

/**
 * docs/behaviour/interrupts.md#continuation: a Pipeline selection is answered with text; the answer's stream ends at a
 * boundary that is not the end of the turn (`working`, `empty-input`, `consumed-input`), and the Pipeline
 * goes on by itself (`pipeline-selection` script). The gateway subscribes exactly once and reports what
 * the continuation does: a new input → interrupt; completed → success; failed → A2A_EXECUTION_FAILED;
 * nothing (eof) → A2A_UNAVAILABLE, no RUN_FINISHED, nothing pending, and the task cancelled.
 */

const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-pipeline-continuation-'));
const gateway = useGateway({
  upstream: { token: KERNEL_TOKEN },
  env: ({ upstream }) => pipelineGatewayEnv(upstream, stateDir),
});

const CONTINUATIONS: readonly SelectionContinuation[] = ['input', 'completed', 'failed', 'eof'];
const rowsOf = (boundaries: readonly SelectionBoundary[]) =>
  boundaries.flatMap((boundary) =>
    CONTINUATIONS.map((continuation) => ({
      name: `${boundary} boundary, ${continuation}`,
      boundary,
      continuation,
    })),
  );

const PICK_B = [{ interruptId: 'selection-1', payload: { selectedId: 'candidate-b' } }];

interface Outcome {
  readonly first: BaseEvent[];
  readonly second: BaseEvent[];
  readonly taskId: string;
  readonly threadId: string;
}

async function selectThenContinue(boundary: SelectionBoundary, continuation: SelectionContinuation) {
  const threadId = `selection-${boundary}-${continuation}`;
  const first = await runThrough(
    gateway.url,
    pipelineTurn(threadId, `pipeline-selection ${boundary} ${continuation}`),
  );
  const second = await runThrough(gateway.url, pipelineResume(threadId, 'run-2', PICK_B));
  return { first, second, taskId: taskIdOf(first), threadId } satisfies Outcome;
}

/** What the continuation must end with, per docs/behaviour/interrupts.md#continuation. */
const expectedEnd: Record<SelectionContinuation, Record<string, unknown>> = {
  input: { type: EventType.RUN_FINISHED, outcome: { type: 'interrupt' } },
  completed: { type: EventType.RUN_FINISHED, outcome: { type: 'success' } },
  failed: { type: EventType.RUN_ERROR, code: 'A2A_EXECUTION_FAILED' },
  eof: { type: EventType.RUN_ERROR, code: 'A2A_UNAVAILABLE' },
};

/** Every assertion of one row of. */
async function expectNativeContinuation(
  boundary: SelectionBoundary,
  continuation: SelectionContinuation,
): Promise<void> {
  const { first, second, taskId, threadId } = await selectThenContinue(boundary, continuation);
  expect(interruptIdsOf(first)).toEqual(['selection-1']);

  // One prompt (the option's label, to the same task) and exactly one subscription.
  const calls = await callsFor(gateway.upstream, taskId, threadId);
  const counts = countByMethod(calls);
  expect(counts.SendStreamingMessage).toBe(2);
  expect(counts.SubscribeToTask).toBe(1);
  // Only the resume preflight catches the Pipeline up: a question answer schedules no second recovery
  // (that one is for permission answers), so no late snapshot and no replayed envelopes follow.
  expect(counts['pipeline-state']).toBe(1);
  expect(second.filter((event) => event.type === EventType.ACTIVITY_SNAPSHOT)).toHaveLength(1);
  const prompt = calls.filter((call) => call.method === 'SendStreamingMessage')[1].params.message;
  expect(prompt).toMatchObject({ taskId, parts: [{ text: 'Candidate B' }] });
  expect(textOf(second)).toContain('Deploying Candidate B. ');

  expect(lastOf(second)).toMatchObject(expectedEnd[continuation]);
  expect(stepBalanceProblems(second)).toEqual([]);
  const file = readThreadFile(stateDir, threadId);
  expect(file.appliedResumeDigests.map((digest) => digest.interruptId)).toEqual(['selection-1']);

  if (continuation === 'input') {
    // Same execution and task; the old answer's digest stays recorded.
    expect(interruptIdsOf(second)).toEqual(['next-selection']);
    expect(Object.keys(file.execution.pending)).toEqual(['next-selection']);
    expect(file.execution.taskId).toBe(taskId);
  } else {
    expect(file.execution.pending).toEqual({});
  }
  if (continuation === 'completed') {
    // The completion was observed, not assumed: its envelope reached this run.
    const customs = second.filter((event) => event.type === EventType.CUSTOM) as Json[];
    expect(customs.map((event) => event.value?.eventType)).toContain('pipeline_completed');
  }
  if (continuation === 'eof') {
    expect(second.map((event) => event.type)).not.toContain(EventType.RUN_FINISHED);
    const cancels = await eventually(
      async () => (await callsFor(gateway.upstream, taskId)).filter((call) => call.method === 'CancelTask'),
      (found) => found.length > 0,
    );
    expect(cancels).toHaveLength(1);
    expect(
      await eventually(
        () => upstreamTaskState(gateway.upstream, taskId),
        (s) => s === 'TASK_STATE_CANCELED',
      ),
    ).toBe('TASK_STATE_CANCELED');
  } else {
    expect(countByMethod(await callsFor(gateway.upstream, taskId)).CancelTask).toBeUndefined();
  }
}

describe('native continuation after the selection answer’s stream ends', () => {
  it.each(rowsOf(['working']))('$name', ({ boundary, continuation }) =>
    expectNativeContinuation(boundary, continuation),
  );

  /*
   * The answer's stream ended at INPUT_REQUIRED: the one SubscribeToTask opens with the stored snapshot,
   * still INPUT_REQUIRED, which must not end the run (docs/behaviour/a2a.md#sdk-notes).
   */
  it.each(rowsOf(['empty-input', 'consumed-input']))('$name', ({ boundary, continuation }) =>
    expectNativeContinuation(boundary, continuation),
  );
});
