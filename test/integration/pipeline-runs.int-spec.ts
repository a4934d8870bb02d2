import { EventType, type BaseEvent } from '@ag-ui/core';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { KernelFaultSpec } from '../support/start-kernel-upstream';
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
} from '../support/pipeline-run-checks';
import { useGateway } from '../support/use-gateway';
import type { Json } from '../support/interrupt-helpers';

/**
 * Pipeline runs through one real gateway against the kernel-like upstream process: a Pipeline-mode turn without interrupts, a top-level (non-sideband) permission answered
 * by a streaming call, and a sideband answer whose task completes between GetTask and SubscribeToTask.
 */

const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-pipeline-runs-'));
const gateway = useGateway({
  upstream: { token: KERNEL_TOKEN },
  env: ({ upstream }) => pipelineGatewayEnv(upstream, stateDir),
});

afterEach(async () => {
  await gateway.upstream.clearFaults();
});

const ALLOW_ONCE = [{ interruptId: 'permission-1', payload: { decision: 'allow_once' } }];
const isSuccess = (events: BaseEvent[]) =>
  lastOf(events).type === EventType.RUN_FINISHED && lastOf(events).outcome?.type === 'success';

describe('a Pipeline-mode run is translated to standard AG-UI', () => {
  let events: BaseEvent[];
  let taskId: string;

  beforeAll(async () => {
    events = await runThrough(gateway.url, pipelineTurn('pipeline-normal', 'pipeline unattended'));
    taskId = taskIdOf(events);
  });

  it('RUN_STARTED first, RUN_FINISHED success last, with text and tool arguments from the envelopes', () => {
    expect(events[0]).toMatchObject({
      type: EventType.RUN_STARTED,
      threadId: 'pipeline-normal',
      runId: 'run-1',
    });
    expect(isSuccess(events)).toBe(true);
    expect(textOf(events)).toContain('Candidate A drafts a single-zone VPC. ');
    expect(textOf(events)).toContain('Candidate A checked the workspace.');
    const args = events.filter((event) => event.type === EventType.TOOL_CALL_ARGS) as Json[];
    expect(args.map((event) => [event.toolCallId, event.delta])).toEqual([
      [`${taskId}-candidate-a-tool-1`, '{"command":"pwd"}'],
    ]);
    const result = events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as Json;
    expect(result).toMatchObject({ toolCallId: `${taskId}-candidate-a-tool-1`, content: '/workspace' });
  });

  it('each parallel candidate streams into its own message span', () => {
    const starts = events.filter((event) => event.type === EventType.TEXT_MESSAGE_START) as Json[];
    expect(starts.map((event) => event.messageId)).toEqual([
      'pipeline-message:pipeline-pipeline-normal:candidate:candidate-a-run-1:candidate-a-draft-1:generate-run-1',
      'pipeline-message:pipeline-pipeline-normal:candidate:candidate-b-run-1:candidate-b-draft-1:generate-run-1',
    ]);
  });

  it('steps are balanced; only the allow-listed envelopes become CUSTOM iac-code.pipeline.v1, unchanged', () => {
    expect(stepBalanceProblems(events)).toEqual([]);
    const customs = events.filter(
      (event) => event.type === EventType.CUSTOM && (event as Json).name === 'iac-code.pipeline.v1',
    ) as Json[];
    expect(customs.map((event) => event.value.eventType)).toEqual(['pipeline_started', 'pipeline_completed']);
    expect(customs[0].value).toMatchObject({ eventId: `${taskId}-pipeline-event-1`, sequence: 1 });
  });

  it('the kernel got run_mode "pipeline" in the A2A metadata, and one streaming call', async () => {
    const calls = await callsFor(gateway.upstream, taskId, 'pipeline-normal');
    expect(calls.map((call) => call.method)).toEqual(['SendStreamingMessage']);
    expect(calls[0].params.message.metadata.iac_code.run_mode).toBe('pipeline');
  });
});

describe('a top-level Pipeline permission is answered with a streaming call', () => {
  let first: BaseEvent[];
  let second: BaseEvent[];
  let taskId: string;

  beforeAll(async () => {
    first = await runThrough(gateway.url, pipelineTurn('pipeline-top', 'pipeline top-permission'));
    second = await runThrough(gateway.url, pipelineResume('pipeline-top', 'run-2', ALLOW_ONCE));
    taskId = taskIdOf(first);
  });

  it('run 1 ends at the permission, which is not sideband', () => {
    expect(interruptIdsOf(first)).toEqual(['permission-1']);
    expect(stepBalanceProblems(first)).toEqual([]);
  });

  it('run 2 sends the DataPart answer by SendStreamingMessage and succeeds; no SendMessage', async () => {
    expect(isSuccess(second)).toBe(true);
    expect(stepBalanceProblems(second)).toEqual([]);
    expect(textOf(second)).toContain('Candidate A checked the workspace.');
    const calls = await callsFor(gateway.upstream, taskId, 'pipeline-top');
    expect(countByMethod(calls)).toMatchObject({ SendStreamingMessage: 2 });
    expect(countByMethod(calls).SendMessage).toBeUndefined();
    const answer = calls.filter((call) => call.method === 'SendStreamingMessage')[1].params.message;
    expect(answer).toMatchObject({ taskId, messageId: 'agui-resume-run-2-permission-1' });
    expect(answer.parts).toEqual([
      {
        data: {
          schemaVersion: 1,
          kind: 'permission',
          requestTaskId: taskId,
          inputId: 'permission-1',
          toolUseId: `${taskId}-candidate-a-tool-1`,
          decision: 'allow_once',
        },
        mediaType: 'application/json',
      },
    ]);
  });

  it('the thread recorded the interrupt as a direct one and ends with nothing pending', () => {
    const file = readThreadFile(stateDir, 'pipeline-top');
    expect(file.execution.pending).toEqual({});
    expect(file.appliedResumeDigests.map((digest) => digest.interruptId)).toEqual(['permission-1']);
  });
});

describe('the task completes between GetTask and SubscribeToTask', () => {
  // The subscription is held long enough for the task (`slow-finish`) to complete while it waits, then
  // fails; the gateway must ask GetTask again and take the completed task as the outcome.
  const rows: { name: string; mode: KernelFaultSpec['mode'] }[] = [
    { name: 'the subscription is empty', mode: 'empty-stream' },
    { name: 'the subscription is an error frame', mode: 'rpc-error' },
  ];

  it.each(rows)('$name → re-GetTask shows completed → success; GetTask called 3 times', async ({ mode }) => {
    const threadId = `pipeline-refetch-${mode}`;
    const first = await runThrough(gateway.url, pipelineTurn(threadId, 'pipeline slow-finish'));
    expect(interruptIdsOf(first)).toEqual(['permission-1']);
    const taskId = taskIdOf(first);
    const heldFault = { method: 'SubscribeToTask', mode, delayMs: 800 };
    await gateway.upstream.injectFault(heldFault);

    const second = await runThrough(gateway.url, pipelineResume(threadId, 'run-2', ALLOW_ONCE));
    expect(isSuccess(second)).toBe(true);
    expect(stepBalanceProblems(second)).toEqual([]);
    const calls = await callsFor(gateway.upstream, taskId, threadId);
    expect(calls.map((call) => call.method)).toEqual([
      'SendStreamingMessage',
      'GetTask',
      'pipeline-state',
      'SendMessage',
      'GetTask',
      'SubscribeToTask',
      'GetTask',
      // Sideband recovery at the end of the resume (docs/behaviour/events.md#pipeline-recovery b).
      'pipeline-state',
    ]);
    expect(countByMethod(calls).CancelTask).toBeUndefined();
  });
});
