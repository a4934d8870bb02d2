import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent, Interrupt } from '@ag-ui/core';
import * as os from 'node:os';
import { expectConformantEvents } from '../support/agui-conformance';
import { useGateway } from '../support/use-gateway';

/**
 * The whole human-in-the-loop round trip with the client users use: HttpAgent keeps the interrupts of the
 * first run in `pendingInterrupts`, refuses a new run without answers, and sends them with `resume`.
 */
describe('HttpAgent interrupt → resume end to end', () => {
  const gateway = useGateway({
    env: {
      IAC_CODE_AGUI_UPSTREAM: 'demo',
      IAC_CODE_AGUI_AUTH_TOKEN: 'e2e-token',
      IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
    },
  });

  it('answers a permission interrupt and the run completes on the same task', async () => {
    const agent = new HttpAgent({
      url: gateway.url,
      headers: { Authorization: 'Bearer e2e-token' },
      threadId: 'e2e-interrupt',
    });
    const forwardedProps = {
      iacCode: { schemaVersion: 1, rosInvocationId: 'invocation-hitl', cwd: os.tmpdir() },
    };
    const runs: BaseEvent[][] = [];
    const run = async (parameters: Parameters<HttpAgent['runAgent']>[0]) => {
      const events: BaseEvent[] = [];
      const failures: unknown[] = [];
      await agent.runAgent(parameters, {
        onEvent: ({ event }: { event: BaseEvent }) => void events.push(event),
        onRunFailed: ({ error }: { error: Error }) => void failures.push(error),
      });
      expect(failures).toEqual([]);
      runs.push(events);
      return events;
    };

    agent.messages.push({ id: 'user-1', role: 'user', content: 'permission to inspect the workspace' });
    const first = await run({ runId: 'hitl-run-1', forwardedProps });
    const pending = agent.pendingInterrupts as Interrupt[];
    expect(pending.map((interrupt) => interrupt.id)).toEqual(['permission-1']);
    expect(first.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    // The client itself refuses to start a run that ignores the pending interrupt.
    await expect(agent.runAgent({ runId: 'hitl-ignored', forwardedProps })).rejects.toThrow(
      /pending interrupt/,
    );

    const second = await run({
      runId: 'hitl-run-2',
      forwardedProps,
      resume: [{ interruptId: 'permission-1', status: 'resolved', payload: { decision: 'allow_once' } }],
    });
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(agent.pendingInterrupts ?? []).toEqual([]);
    const session = (run: BaseEvent[]) =>
      (
        run.find((e) => (e as { name?: string }).name === 'iac-code.session.v1') as unknown as {
          value: { taskId: string; executionId: string };
        }
      ).value;
    expect(session(second)).toMatchObject({
      taskId: session(first).taskId,
      executionId: session(first).executionId,
    });
    expect(second.some((e) => e.type === 'TOOL_CALL_RESULT')).toBe(true);
    for (const events of runs) await expectConformantEvents(events);
  });
});
