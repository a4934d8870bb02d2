import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent, Interrupt } from '@ag-ui/core';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expectConformantEvents } from '../support/agui-conformance';
import { answersTo, readThread, sessionOf, typesOf } from '../support/interrupt-helpers';
import { eventually } from '../support/sse-client';
import type { RunningGateway } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';

/**
 * HttpAgent keeps an interrupt in `pendingInterrupts` until a run finishes and refuses every new run
 * meanwhile; for an expired interrupt it tells the user to cancel it. Giving up an interrupt of an
 * execution that has already ended or expired must therefore finish the run, or the client is stuck.
 */
describe('HttpAgent with interrupts of an ended or expired execution', () => {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-stale-interrupts-'));
  const gateway = useGateway({
    upstream: true,
    env: { IAC_CODE_AGUI_STATE_DIR: mkdtempSync(path.join(os.tmpdir(), 'agui-stale-interrupts-')) },
  });
  /** Interrupts expire after one second here; `gateway` keeps the default TTL. */
  let expiring: RunningGateway;
  const iacCode = { schemaVersion: 1, rosInvocationId: 'invocation-stale', cwd: os.tmpdir() };

  const run = async (agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0]) => {
    const events: BaseEvent[] = [];
    const failures: Error[] = [];
    await agent
      .runAgent(
        { forwardedProps: { iacCode }, ...parameters },
        {
          onEvent: ({ event }: { event: BaseEvent }) => void events.push(event),
          onRunFailed: ({ error }: { error: Error }) => void failures.push(error),
        },
      )
      .catch((error: Error) => failures.push(error));
    await expectConformantEvents(events);
    return { events, failures };
  };
  const interruptedAgent = async (url: string, threadId: string) => {
    const agent = new HttpAgent({ url, threadId });
    agent.messages.push({ id: 'user-1', role: 'user', content: 'permission to inspect the workspace' });
    const first = await run(agent, { runId: `${threadId}-1` });
    expect((agent.pendingInterrupts as Interrupt[]).map((interrupt) => interrupt.id)).toEqual([
      'permission-1',
    ]);
    return { agent, session: sessionOf(first.events) };
  };

  beforeAll(async () => {
    expiring = await gateway.start({ IAC_CODE_AGUI_STATE_DIR: stateDir, IAC_CODE_AGUI_INTERRUPT_TTL: '1' });
  });

  it('cancelling an expired interrupt finishes the run without calling A2A, and the thread goes on', async () => {
    const { agent, session } = await interruptedAgent(expiring.url, 'stale-expired');
    // The expiry timer ends the execution (pending dropped, task cancelled) one second later.
    await eventually(
      async () => readThread(stateDir, 'stale-expired'),
      (state) => Object.keys(state.execution.pending).length === 0,
      4000,
    );
    // HttpAgent itself refuses to answer an expired interrupt: cancelling it is the only way on.
    await expect(
      agent.runAgent({
        runId: 'stale-expired-answer',
        forwardedProps: { iacCode },
        resume: [{ interruptId: 'permission-1', status: 'resolved', payload: { decision: 'allow_once' } }],
      }),
    ).rejects.toThrow(/expired/);

    const cancelled = await run(agent, {
      runId: 'stale-expired-2',
      resume: [{ interruptId: 'permission-1', status: 'cancelled' }],
    });
    expect(cancelled.failures).toEqual([]);
    expect(typesOf(cancelled.events)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    expect(cancelled.events.at(-1)).toMatchObject({ runId: 'stale-expired-2', outcome: { type: 'success' } });
    expect(agent.pendingInterrupts ?? []).toEqual([]);
    expect(await answersTo(gateway.upstream, session.taskId)).toEqual([]);

    agent.messages.push({ id: 'user-2', role: 'user', content: 'Create a VPC template' });
    const next = await run(agent, { runId: 'stale-expired-3' });
    expect(next.failures).toEqual([]);
    expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('cancelling an interrupt already answered elsewhere finishes the run; a replayed answer keeps its code', async () => {
    const { agent, session } = await interruptedAgent(gateway.url, 'stale-answered');
    // Another tab (a second client with the same pending list) answers it, and that execution completes.
    const other = new HttpAgent({ url: gateway.url, threadId: 'stale-answered' });
    other.pendingInterrupts = [...(agent.pendingInterrupts as Interrupt[])];
    const answer = {
      interruptId: 'permission-1',
      status: 'resolved' as const,
      payload: { decision: 'allow_once' },
    };
    const answered = await run(other, { runId: 'stale-answered-2', resume: [answer] });
    expect(answered.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const sentBefore = (await answersTo(gateway.upstream, session.taskId)).length;

    const replayed = await run(agent, { runId: 'stale-answered-3', resume: [answer] });
    expect(replayed.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
    expect(agent.pendingInterrupts).toHaveLength(1);

    const cancelled = await run(agent, {
      runId: 'stale-answered-4',
      resume: [{ interruptId: 'permission-1', status: 'cancelled' }],
    });
    expect(typesOf(cancelled.events)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    expect(cancelled.events.at(-1)).toMatchObject({ outcome: { type: 'success' } });
    expect(agent.pendingInterrupts ?? []).toEqual([]);
    expect(await answersTo(gateway.upstream, session.taskId)).toHaveLength(sentBefore);
  });
});
