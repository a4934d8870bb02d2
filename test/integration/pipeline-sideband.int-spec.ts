import { EventType, type BaseEvent } from '@ag-ui/core';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CANDIDATE_B_WHILE_WAITING } from '../../src/demo-kernel/pipeline-script';
import {
  callsFor,
  countByMethod,
  interruptIdsOf,
  KERNEL_TOKEN,
  lastOf,
  namesOf,
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
import { useGateway } from '../support/use-gateway';
import type { Json } from '../support/interrupt-helpers';

/**
 * The `pipeline` script through real gateways: two parallel
 * candidates; candidate A's permission travels sideband in `pendingPermissions` on a WORKING frame while
 * candidate B keeps streaming. The first run ends at that interrupt; a fresh gateway on the same state
 * directory resumes it with the kernel's non-streaming `SendMessage`, catches up through the recovery
 * route, and follows the task to completion.
 */

const gateways = useGateway({ upstream: { token: KERNEL_TOKEN }, startBeforeAll: false });

afterEach(async () => {
  await gateways.upstream.clearFaults();
});

/** The `pipeline` script's sequence of B's `candidate_step_completed`, the last envelope before A's answer. */
const B_FINISHED_SEQUENCE = 10;

const ALLOW_ONCE = [{ interruptId: 'permission-1', payload: { decision: 'allow_once' } }];

interface Scenario {
  readonly stateDir: string;
  readonly first: BaseEvent[];
  readonly second: BaseEvent[];
  readonly taskId: string;
  /** The thread file right after the first run ended at its interrupt. */
  readonly fileAtInterrupt: Json;
}

/** Run 1 on one gateway, then close it; run 2 (the resume) on a fresh gateway on the same state directory. */
async function interruptThenResumeOnFreshGateway(threadId: string): Promise<Scenario> {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-pipeline-'));
  const env = pipelineGatewayEnv(gateways.upstream, stateDir);
  const initial = await gateways.start(env);
  const first = await runThrough(initial.url, pipelineTurn(threadId, 'pipeline'));
  await initial.close();
  // The scenario: B finishes while A waits and no gateway reads. Waiting for the kernel's event, not a
  // timer, keeps the resume's preflight recovery (docs/behaviour/events.md#pipeline-recovery a) the one
  // that brings B's finish on any machine; a resume that came sooner would get it from the end recovery.
  await gateways.upstream.pipelineReached(taskIdOf(first), B_FINISHED_SEQUENCE);
  const fileAtInterrupt = readThreadFile(stateDir, threadId) as unknown as Json;
  const fresh = await gateways.start(env);
  // A's frames after the answer wait (a held step) until the gateway subscribed, so they come on the
  // task's stream and not, out of order, from the end recovery: the journal entry is written in the same
  // turn of the kernel's loop that attaches the subscription, before the release can arrive.
  await gateways.upstream.armHolds();
  const resumed = runThrough(fresh.url, pipelineResume(threadId, 'run-2', ALLOW_ONCE));
  await untilSubscribedOrSettled(taskIdOf(first), resumed);
  await gateways.upstream.releaseHolds();
  const second = await resumed;
  await fresh.close();
  return { stateDir, first, second, taskId: taskIdOf(first), fileAtInterrupt };
}

/** Polls the kernel's journal until the gateway called `SubscribeToTask` for the task or the run ended. */
async function untilSubscribedOrSettled(taskId: string, run: Promise<unknown>): Promise<void> {
  let isSettled = false;
  void run.finally(() => (isSettled = true)).catch(() => undefined);
  while (!isSettled) {
    const calls = await callsFor(gateways.upstream, taskId);
    if (calls.some((call) => call.method === 'SubscribeToTask')) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a parallel candidate waits while the other keeps running; a fresh gateway resumes', () => {
  let scenario: Scenario;

  beforeAll(async () => {
    scenario = await interruptThenResumeOnFreshGateway('pipeline-tsse');
  });

  it('run 1 ends at candidate A’s permission, persisted as a sideband interrupt before RUN_FINISHED', () => {
    const { first, fileAtInterrupt } = scenario;
    expect(first[0].type).toBe(EventType.RUN_STARTED);
    expect(lastOf(first).type).toBe(EventType.RUN_FINISHED);
    expect(interruptIdsOf(first)).toEqual(['permission-1']);
    const interrupt = (lastOf(first).outcome as Json).interrupts[0];
    expect(interrupt).toMatchObject({
      reason: 'tool_call',
      message: 'Run a local check for candidate A. Allow once?',
      toolCallId: `${scenario.taskId}-candidate-a-tool-1`,
      metadata: { kind: 'permission', scope: 'candidate', subPipelineId: 'candidate-a' },
    });
    expect(Object.keys(fileAtInterrupt.execution.pending)).toEqual(['permission-1']);
    expect(fileAtInterrupt.execution.pending['permission-1'].sideband).toBe(true);
    expect(fileAtInterrupt.execution.taskId).toBe(scenario.taskId);
    // Both candidates' texts ran as two parallel message spans (docs/behaviour/events.md#pipeline-envelopes).
    expect(textOf(first)).toContain('Candidate A drafts a single-zone VPC. ');
    expect(textOf(first)).toContain('Candidate B drafts a two-zone VPC. ');
    expect(textOf(first)).not.toContain(CANDIDATE_B_WHILE_WAITING);
  });

  it('run 2 recovers with ACTIVITY_SNAPSHOT, delivers B’s text as TEXT_MESSAGE_CONTENT and succeeds', () => {
    const { second, taskId } = scenario;
    const snapshots = second.filter((event) => event.type === EventType.ACTIVITY_SNAPSHOT) as Json[];
    // One from the resume preflight (docs/behaviour/interrupts.md#resume-preparation step 4) and one from the sideband recovery at the end (docs/behaviour/events.md#pipeline-recovery b),
    // which replaces it with the finished Pipeline.
    expect(snapshots).toHaveLength(2);
    expect(snapshots[0]).toMatchObject({
      messageId: `pipeline:${taskId}-pipeline`,
      activityType: 'iac-code.pipeline.v1',
      replace: true,
      content: {
        schemaVersion: 1,
        pipelineRunId: `${taskId}-pipeline`,
        snapshot: { lastSequence: B_FINISHED_SEQUENCE },
      },
    });
    expect(snapshots[1]).toMatchObject({
      messageId: `pipeline:${taskId}-pipeline`,
      replace: true,
      content: { snapshot: { lastSequence: 15, status: 'completed' } },
    });
    const contents = second.filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT) as Json[];
    expect(contents.map((event) => event.delta)).toContain(CANDIDATE_B_WHILE_WAITING);
    expect(textOf(second)).toContain('Candidate A checked the workspace.');
    expect(lastOf(second)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
  });

  it('exactly one interrupt across both runs; the task is never cancelled or failed, and completes', async () => {
    const { first, second, taskId } = scenario;
    expect([...interruptIdsOf(first), ...interruptIdsOf(second)]).toEqual(['permission-1']);
    const calls = await callsFor(gateways.upstream, taskId);
    expect(calls.map((call) => call.method)).not.toContain('CancelTask');
    expect(await upstreamTaskState(gateways.upstream, taskId)).toBe('TASK_STATE_COMPLETED');
  });

  it('the state file ends with nothing pending and the execution terminal', () => {
    const file = readThreadFile(scenario.stateDir, 'pipeline-tsse');
    expect(file.execution.pending).toEqual({});
    expect(file.execution.taskId).toBeNull();
    expect(file.execution.lastTaskId).toBe(scenario.taskId);
    expect(file.terminalExecutionIds).toContain(file.execution.executionId);
  });
});

describe('steps balanced across the interrupt and the resume run', () => {
  let scenario: Scenario;

  beforeAll(async () => {
    scenario = await interruptThenResumeOnFreshGateway('pipeline-steps');
  });

  it('run 1 opens the step and both candidate steps, finishes B’s, and closes the rest before RUN_FINISHED', () => {
    const { first, fileAtInterrupt } = scenario;
    expect(stepBalanceProblems(first)).toEqual([]);
    expect(namesOf(first, EventType.STEP_STARTED)).toEqual([
      'generate',
      'candidate:candidate-a:draft',
      'candidate:candidate-b:draft',
    ]);
    // Durable: what the Pipeline still has open, for the resume run to reopen (docs/behaviour/events.md#pipeline-envelopes, docs/behaviour/events.md#run-lifecycle).
    expect(fileAtInterrupt.execution.pipelineOpenSteps).toEqual([
      'candidate:candidate-a:draft',
      'candidate:candidate-b:draft',
      'step:generate',
    ]);
    expect(fileAtInterrupt.execution.pipelineSequence).toBe(8);
  });

  it('run 2 reopens the durable steps, recovery finishes B’s, the stream finishes A’s and the step', () => {
    const { second } = scenario;
    expect(stepBalanceProblems(second)).toEqual([]);
    const started = namesOf(second, EventType.STEP_STARTED);
    expect(started.slice(0, 3)).toEqual([
      'candidate:candidate-a:draft',
      'candidate:candidate-b:draft',
      'generate',
    ]);
    expect(second[1].type).toBe(EventType.STEP_STARTED);
    expect(namesOf(second, EventType.STEP_FINISHED)).toEqual([
      'candidate:candidate-b:draft',
      'candidate:candidate-a:draft',
      'generate',
    ]);
  });

  /* docs/behaviour/events.md#run-lifecycle step 7: the binding's cursor and open steps are persisted at the end of the run too. */
  it('durable open steps end empty in the state file, with the cursor at the last sequence', () => {
    const file = readThreadFile(scenario.stateDir, 'pipeline-steps');
    expect(file.execution.pipelineOpenSteps).toEqual([]);
    expect(file.execution.pipelineSequence).toBe(15);
  });

  it('recovery asked for the envelopes after the persisted cursor', async () => {
    const recoveries = (await callsFor(gateways.upstream, scenario.taskId)).filter(
      (call) => call.method === 'pipeline-state',
    );
    expect(recoveries[0].params).toEqual({ taskId: scenario.taskId, afterSequence: '8' });
  });
});

describe('a sub-pipeline permission is answered sideband', () => {
  let scenario: Scenario;

  beforeAll(async () => {
    scenario = await interruptThenResumeOnFreshGateway('pipeline-sideband');
  });

  it('non-streaming SendMessage with the exact DataPart, then GetTask and SubscribeToTask; one streaming call', async () => {
    const { taskId } = scenario;
    const calls = await callsFor(gateways.upstream, taskId, 'pipeline-sideband');
    const methods = calls.map((call) => call.method);
    expect(methods).toEqual([
      'SendStreamingMessage',
      'GetTask',
      'pipeline-state',
      'SendMessage',
      'GetTask',
      'SubscribeToTask',
      // Sideband recovery at the end of the resume (docs/behaviour/events.md#pipeline-recovery b).
      'pipeline-state',
    ]);
    expect(countByMethod(calls).SendStreamingMessage).toBe(1);
    const answer = calls.find((call) => call.method === 'SendMessage')!.params.message;
    expect(answer).toMatchObject({ role: 'ROLE_USER', taskId });
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
    expect(lastOf(scenario.second)).toMatchObject({
      type: EventType.RUN_FINISHED,
      outcome: { type: 'success' },
    });
  });

  it('the first run sent run_mode "pipeline" in the A2A metadata', async () => {
    const [opening] = await callsFor(gateways.upstream, scenario.taskId, 'pipeline-sideband');
    expect(opening.params.message.metadata.iac_code.run_mode).toBe('pipeline');
  });
});
