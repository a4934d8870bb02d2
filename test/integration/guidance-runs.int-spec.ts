import { mkdtempSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GUIDANCE_APPLIED_PREFIX } from '../../src/demo-kernel/pipeline-script';
import { expectConformantEvents } from '../support/agui-conformance';
import { paramsOf, readThread, typesOf, type Json } from '../support/interrupt-helpers';
import { pipelineGatewayEnv, pipelineTurn, runThrough, textOf } from '../support/pipeline-run-checks';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';

const GUIDANCE = 'prefer a single availability zone';

/** A guidance run (`activeGuidance`) on a Pipeline thread. */
function guidanceRun(threadId: string, runId: string, iacCode: Record<string, unknown> = {}) {
  return runInput({
    threadId,
    runId,
    text: GUIDANCE,
    iacCode: { runMode: 'pipeline', activeGuidance: true, ...iacCode },
  });
}

/**
 * Guidance runs, as the published adapter 0.16.0 runs them (docs/behaviour/guidance-runs.md): the message
 * goes into the thread's live Pipeline task while that Pipeline's own run keeps streaming.
 */
describe('guidance runs (forwardedProps.iacCode.activeGuidance)', () => {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-guidance-'));
  const gateway = useGateway({
    upstream: true,
    env: ({ upstream }) => pipelineGatewayEnv(upstream, stateDir),
  });

  it('sends the message into the live Pipeline task while its run streams, and answers RUN_STARTED + RUN_FINISHED', async () => {
    const threadId = 'guided-1';
    const live = postRun(gateway.url, pipelineTurn(threadId, 'pipeline unattended await-guidance'));
    // The task id is on disk before the live run announces anything of its task (persist before announce).
    const bound = await eventually(
      async () => {
        try {
          return readThread(stateDir, threadId);
        } catch {
          return undefined;
        }
      },
      (state) => typeof state?.execution?.taskId === 'string',
    );
    const taskId = bound?.execution.taskId as string;
    const executionId = bound?.execution.executionId as string;

    const guided = await postRun(gateway.url, guidanceRun(threadId, 'run-2'));
    expect(guided.status).toBe(200);
    await expectConformantEvents(guided.events);
    expect(typesOf(guided.events)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    expect(guided.events[1]).toEqual({
      type: 'RUN_FINISHED',
      threadId,
      runId: 'run-2',
      outcome: { type: 'success' },
      timestamp: expect.any(Number),
    });

    // The live run goes on, and the Pipeline shows it received the guidance.
    const liveRun = await live;
    await expectConformantEvents(liveRun.events);
    expect(liveRun.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(textOf(liveRun.events)).toContain(`${GUIDANCE_APPLIED_PREFIX}${GUIDANCE}`);

    const sent = (await paramsOf(gateway.upstream, 'SendStreamingMessage')).filter(
      (params) => (params.message as Json).taskId === taskId,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].message).toMatchObject({
      taskId,
      contextId: bound?.contextId,
      role: 'ROLE_USER',
      parts: [{ text: GUIDANCE }],
      metadata: { iac_code: { run_mode: 'pipeline', rosInvocationId: 'invocation-1' } },
    });
    // Recorded for idempotency; the execution was neither rotated nor ended by the guidance.
    const after = readThread(stateDir, threadId);
    expect(Object.keys(after.runDigests).sort()).toEqual(['run-1', 'run-2']);
    expect(after.execution.executionId).toBe(executionId);
    expect(await paramsOf(gateway.upstream, 'CancelTask')).not.toContainEqual(
      expect.objectContaining({ id: taskId }),
    );

    // The same guidance again is a duplicate run id, as any run.
    const again = await postRun(gateway.url, guidanceRun(threadId, 'run-2'));
    expect(again.status).toBe(409);
    expect(JSON.parse(again.text).error.code).toBe('DUPLICATE_RUN_ID');
  });

  it.each([
    { name: 'an unknown thread', threadId: 'guided-unknown', prepare: async () => undefined },
    {
      name: 'a thread whose Pipeline ended',
      threadId: 'guided-ended',
      prepare: async () =>
        void (await runThrough(gateway.url, pipelineTurn('guided-ended', 'pipeline unattended'))),
    },
    {
      name: 'a thread whose normal turn ended',
      threadId: 'guided-normal',
      prepare: async () => void (await runThrough(gateway.url, runInput({ threadId: 'guided-normal' }))),
    },
  ])('answers 409 EXECUTION_LOST on $name, sending nothing', async ({ threadId, prepare }) => {
    await prepare();
    const before = (await gateway.upstream.requests()).length;
    const refused = await postRun(gateway.url, guidanceRun(threadId, 'guide-1'));
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text)).toEqual({
      error: { code: 'EXECUTION_LOST', message: 'The execution to resume is no longer available.' },
    });
    expect((await gateway.upstream.requests()).slice(before)).toEqual([]);
  });

  it('is refused RESUME_REQUIRED while an interrupt waits, like a new turn', async () => {
    const threadId = 'guided-waiting';
    const interrupted = await runThrough(gateway.url, pipelineTurn(threadId, 'pipeline'));
    expect(interrupted.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const refused = await postRun(gateway.url, guidanceRun(threadId, 'guide-1'));
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text).error.code).toBe('RESUME_REQUIRED');
    expect(readFileSync(path.join(stateDir, 'threads', `${threadId}.json`), 'utf8')).not.toContain('guide-1');
  });
});
