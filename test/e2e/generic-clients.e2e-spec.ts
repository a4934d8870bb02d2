import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/core';
import { mkdtempSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expectConformantEvents } from '../support/agui-conformance';
import { answersTo, readThread } from '../support/interrupt-helpers';
import { postRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';

type Interrupt = { id: string };

/** Runs one turn with HttpAgent and returns every event it delivered, plus any failure. */
async function runTurn(agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0]) {
  const events: BaseEvent[] = [];
  const failures: unknown[] = [];
  await agent.runAgent(parameters, {
    onEvent: ({ event }: { event: BaseEvent }) => void events.push(event),
    onRunFailed: ({ error }: { error: Error }) => void failures.push(error),
  });
  return { events, failures };
}

/**
 * Generic AG-UI clients: a plain HttpAgent sends `forwardedProps: {}` and no iac-code
 * properties at all; with IAC_CODE_AGUI_GENERIC_CLIENTS the gateway fills them. The workspace root is not
 * among the allowed roots on purpose: the mode must admit it by itself.
 */
describe('generic AG-UI clients (IAC_CODE_AGUI_GENERIC_CLIENTS=true)', () => {
  const workspaceRoot = path.join(mkdtempSync(path.join(os.tmpdir(), 'agui-generic-')), 'workspaces');
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-generic-state-'));
  const gateway = useGateway({
    upstream: true,
    env: {
      IAC_CODE_AGUI_ALLOWED_CWDS: mkdtempSync(path.join(os.tmpdir(), 'agui-allowed-')),
      IAC_CODE_AGUI_STATE_DIR: stateDir,
      IAC_CODE_AGUI_GENERIC_CLIENTS: 'true',
      IAC_CODE_AGUI_GENERIC_WORKSPACE_ROOT: workspaceRoot,
    },
  });

  it('completes a run of a plain HttpAgent in a per-thread workspace', async () => {
    const agent = new HttpAgent({ url: `${gateway.url}invocations`, threadId: 'generic-text' });
    agent.messages.push({ id: 'user-1', role: 'user', content: 'Create a VPC template' });
    const { events, failures } = await runTurn(agent, { runId: 'generic-run-1' });
    expect(failures).toEqual([]);
    await expectConformantEvents(events);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(readdirSync(workspaceRoot)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
    const sent = (await gateway.upstream.requests()).filter(
      (entry) => entry.rpcMethod === 'SendStreamingMessage',
    );
    expect(JSON.stringify(sent.at(-1)?.body)).toContain(
      path.join(workspaceRoot, readdirSync(workspaceRoot)[0]),
    );
  });

  it('round-trips an interrupt and its resume with the run id of the turn as invocation id', async () => {
    const agent = new HttpAgent({ url: gateway.url, threadId: 'generic-permission' });
    agent.messages.push({ id: 'user-1', role: 'user', content: 'permission to run a command' });
    const first = await runTurn(agent, { runId: 'generic-turn-1' });
    expect(first.failures).toEqual([]);
    await expectConformantEvents(first.events);
    const finished = first.events.at(-1) as { outcome?: { type: string; interrupts?: Interrupt[] } };
    expect(finished.outcome?.type).toBe('interrupt');
    const [interrupt] = finished.outcome?.interrupts ?? [];

    const resumed = await runTurn(agent, {
      runId: 'generic-turn-1-resume',
      resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { decision: 'allow_once' } }],
    });
    expect(resumed.failures).toEqual([]);
    await expectConformantEvents(resumed.events);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('tells an app with frontend tools that client tools are not supported', async () => {
    const response = await postRun(gateway.url, {
      threadId: 'generic-tools',
      runId: 'generic-tools-1',
      messages: [{ id: 'user-1', role: 'user', content: 'hi' }],
      tools: [{ name: 'showChart', description: 'renders a chart', parameters: { type: 'object' } }],
      context: [],
      forwardedProps: {},
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toEqual({
      error: { code: 'INVALID_INPUT', message: 'Client-provided tools are not supported.' },
    });
  });

  // CopilotKit's useInterrupt resumes with the runId of the run that raised the interrupt.
  it('accepts a resume that reuses the interrupted run id, answering with that id; a retry sends nothing again', async () => {
    const agent = new HttpAgent({ url: gateway.url, threadId: 'generic-same-run-id' });
    agent.messages.push({ id: 'user-1', role: 'user', content: 'permission to run a command' });
    const first = await runTurn(agent, { runId: 'same-run-1' });
    const [interrupt] = (first.events.at(-1) as { outcome?: { interrupts?: Interrupt[] } }).outcome
      ?.interrupts ?? [{ id: 'none' }];
    const resume = [{ interruptId: interrupt.id, status: 'resolved', payload: { decision: 'allow_once' } }];

    const resumed = await runTurn(agent, { runId: 'same-run-1', resume: resume as never });
    expect(resumed.failures).toEqual([]);
    await expectConformantEvents(resumed.events);
    expect(resumed.events[0]).toMatchObject({ type: 'RUN_STARTED', runId: 'same-run-1' });
    expect(resumed.events.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      runId: 'same-run-1',
      outcome: { type: 'success' },
    });
    expect(agent.pendingInterrupts ?? []).toEqual([]);
    // Recorded under an id of its own next to the first run's digest, which stays untouched.
    const state = readThread(stateDir, 'generic-same-run-id');
    expect(Object.keys(state.runDigests)).toEqual([
      expect.stringMatching(/^resume-[0-9a-f-]{36}$/),
      'same-run-1',
    ]);
    const taskId = (state.execution.lastTaskId ?? '') as string;
    const answers = await answersTo(gateway.upstream, taskId);
    expect(answers).toHaveLength(1);

    // The same resume again (a client retrying): judged by the resume rules, nothing is sent twice.
    const body = {
      threadId: 'generic-same-run-id',
      runId: 'same-run-1',
      messages: [],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
      resume,
    };
    const retried = await postRun(gateway.url, body);
    expect(retried.status).toBe(200);
    expect(retried.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'RESUME_ALREADY_APPLIED' });
    expect(await answersTo(gateway.upstream, taskId)).toHaveLength(1);
    // A normal turn may not reuse it.
    const turn = await postRun(gateway.url, {
      ...body,
      resume: undefined,
      messages: [{ id: 'user-2', role: 'user', content: 'hello' }],
    });
    expect(turn.status).toBe(409);
    expect(JSON.parse(turn.text).error.code).toBe('RUN_ID_CONFLICT');
  });
});

describe('a resume that reuses the interrupted run id in strict mode', () => {
  const gateway = useGateway({ upstream: true });

  it('is refused 409 RUN_ID_CONFLICT before the stream, and the interrupt stays answerable', async () => {
    const forwardedProps = { iacCode: { schemaVersion: 1, rosInvocationId: 'inv-strict', cwd: os.tmpdir() } };
    const agent = new HttpAgent({ url: gateway.url, threadId: 'strict-same-run-id' });
    agent.messages.push({ id: 'user-1', role: 'user', content: 'permission to run a command' });
    await runTurn(agent, { runId: 'strict-run-1', forwardedProps });
    const resume = [
      { interruptId: 'permission-1', status: 'resolved' as const, payload: { decision: 'allow_once' } },
    ];
    // HttpAgent rejects the run's promise with the HTTP status and the parsed JSON envelope.
    const refused = await agent.runAgent({ runId: 'strict-run-1', forwardedProps, resume }).then(
      () => undefined,
      (error: { status?: number; payload?: unknown }) => error,
    );
    expect(refused).toMatchObject({ status: 409, payload: { error: { code: 'RUN_ID_CONFLICT' } } });
    expect((agent.pendingInterrupts as Interrupt[]).map((interrupt) => interrupt.id)).toEqual([
      'permission-1',
    ]);
    const answered = await runTurn(agent, { runId: 'strict-run-2', forwardedProps, resume });
    expect(answered.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });
});
