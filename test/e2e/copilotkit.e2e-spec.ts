import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent, Interrupt } from '@ag-ui/client';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expectConformantEvents } from '../support/agui-conformance';
import { answersTo, readThread, sessionOf } from '../support/interrupt-helpers';
import { eventually } from '../support/sse-client';
import type { RunningGateway } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';

type CopilotKitCore = import('@copilotkit/core').CopilotKitCore;
/** The core's agent type: CopilotKit 1.75 bundles its own @ag-ui/client (0.0.59). */
type CoreAgent = NonNullable<ReturnType<CopilotKitCore['getAgent']>>;
// The runtime is loaded through its `exports` subpaths (the types are those the subpaths point to).
type RuntimeV2 = typeof import('@copilotkit/runtime/v2');
type RuntimeV2Node = typeof import('@copilotkit/runtime/v2/node');

/**
 * CopilotKit as apps use it: its runtime (`@copilotkit/runtime` v2) registers the gateway as an AG-UI agent
 * through HttpAgent and is served on loopback; its headless client (`@copilotkit/core`) talks only to that
 * runtime, passing `iacCode` through `properties` (sent as `forwardedProps`), against the strict gateway on
 * the kernel-like upstream.
 */
describe('CopilotKit runtime + headless core end to end', () => {
  const gateway = useGateway({ upstream: true, env: { IAC_CODE_AGUI_AUTH_TOKEN: 'copilotkit-token' } });
  /** The same upstream behind a gateway with IAC_CODE_AGUI_GENERIC_CLIENTS=true (no `iacCode` needed). */
  let genericGateway: RunningGateway;
  /** Interrupts that expire after one second, and the state directory whose files show the expiry. */
  let shortTtlGateway: RunningGateway;
  const shortTtlStateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-copilotkit-ttl-'));
  let runtimeServer: Server;
  let runtimeUrl: string;
  const iacCode = { schemaVersion: 1, rosInvocationId: 'invocation-copilotkit', cwd: os.tmpdir() };

  // CopilotKit reports usage to its servers unless its opt-out variables say not to; nothing here may leave
  // the machine. It reads them when it runs, so they are set before its modules load and restored after.
  const telemetryOptOut = { COPILOTKIT_TELEMETRY_DISABLED: 'true', DO_NOT_TRACK: '1' };
  const environmentBefore = Object.fromEntries(
    Object.keys(telemetryOptOut).map((name) => [name, process.env[name]]),
  );

  beforeAll(async () => {
    Object.assign(process.env, telemetryOptOut);
    genericGateway = await gateway.start({
      IAC_CODE_AGUI_AUTH_TOKEN: undefined,
      IAC_CODE_AGUI_GENERIC_CLIENTS: 'true',
    });
    shortTtlGateway = await gateway.start({
      IAC_CODE_AGUI_AUTH_TOKEN: undefined,
      IAC_CODE_AGUI_INTERRUPT_TTL: '1',
      IAC_CODE_AGUI_STATE_DIR: shortTtlStateDir,
    });
    const { CopilotRuntime } = (await import('@copilotkit/runtime/v2' as string)) as RuntimeV2;
    const { createCopilotNodeListener } = (await import(
      '@copilotkit/runtime/v2/node' as string
    )) as RuntimeV2Node;
    // HttpAgent of @ag-ui/client 1.0, which works with CopilotKit's bundled 0.0.59 but is not its type.
    const runtime = new CopilotRuntime({
      agents: {
        default: new HttpAgent({
          url: gateway.url,
          headers: { Authorization: 'Bearer copilotkit-token' },
        }) as never,
        generic: new HttpAgent({ url: genericGateway.url }) as never,
        shortTtl: new HttpAgent({ url: shortTtlGateway.url }) as never,
      },
    });
    runtimeServer = createServer(
      // No managed Channels: nothing may open a connection of its own.
      createCopilotNodeListener({ runtime, basePath: '/api/copilotkit', activateChannels: false }),
    );
    await new Promise<void>((resolve) => runtimeServer.listen(0, '127.0.0.1', resolve));
    runtimeUrl = `http://127.0.0.1:${(runtimeServer.address() as AddressInfo).port}/api/copilotkit`;
  });
  afterAll(async () => {
    delete (globalThis as { window?: object }).window;
    runtimeServer?.closeAllConnections();
    await new Promise((resolve) => runtimeServer?.close(resolve));
    for (const [name, value] of Object.entries(environmentBefore)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** A headless CopilotKit client connected to the runtime, and its proxy of the gateway agent. */
  const connect = async (
    threadId: string,
    { agentId = 'default', properties = { iacCode } as Record<string, unknown> } = {},
  ): Promise<{ core: CopilotKitCore; agent: CoreAgent }> => {
    const { CopilotKitCore, CopilotKitCoreRuntimeConnectionStatus } = await import('@copilotkit/core');
    // The core asks the runtime for its agents (GET /info) only where `window` exists (browsers): an empty
    // object is enough, since every other use checks window.location / addEventListener first.
    (globalThis as { window?: object }).window ??= {};
    const core = new CopilotKitCore({ runtimeUrl, properties });
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        const status = core.runtimeConnectionStatus;
        if (status === CopilotKitCoreRuntimeConnectionStatus.Connected) resolve();
        else if (status === CopilotKitCoreRuntimeConnectionStatus.Error)
          reject(new Error('runtime /info failed'));
        else return false;
        return true;
      };
      if (check()) return;
      const subscription = core.subscribe({
        onRuntimeConnectionStatusChanged: () => {
          if (check()) subscription.unsubscribe();
        },
      });
    });
    const agent = core.getAgent(agentId);
    if (!agent) throw new Error('the runtime did not list the gateway agent');
    agent.threadId = threadId;
    return { core, agent };
  };

  /** Runs once through the core and returns every event the agent saw, and any failure. */
  const run = async (
    core: CopilotKitCore,
    agent: CoreAgent,
    resume?: { interruptId: string; status: 'resolved'; payload: unknown }[],
    runId?: string,
  ) => {
    const events: BaseEvent[] = [];
    const errors: unknown[] = [];
    const subscription = agent.subscribe({
      onEvent: ({ event }) => void events.push(event as unknown as BaseEvent),
      onRunFailed: ({ error }) => void errors.push(error),
    });
    try {
      await core
        .runAgent({ agent, ...(resume ? { resume } : {}), ...(runId ? { runId } : {}) })
        .catch((error: unknown) => errors.push(error));
    } finally {
      subscription.unsubscribe();
    }
    return { events, errors };
  };

  it('runs a text turn', async () => {
    const { core, agent } = await connect('copilotkit-text');
    agent.addMessage({ id: 'user-1', role: 'user', content: 'Create a VPC template' });
    const { events, errors } = await run(core, agent);
    expect(errors).toEqual([]);
    await expectConformantEvents(events);
    expect(events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 'copilotkit-text' });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(agent.messages.some((message) => message.role === 'assistant')).toBe(true);
  });

  it('runs an interrupt, then its resume on the same task', async () => {
    const { core, agent } = await connect('copilotkit-interrupt');
    agent.addMessage({ id: 'user-1', role: 'user', content: 'permission to inspect the workspace' });
    const first = await run(core, agent);
    expect(first.errors).toEqual([]);
    await expectConformantEvents(first.events);
    expect(first.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const pending = agent.pendingInterrupts as Interrupt[];
    expect(pending.map((interrupt) => interrupt.id)).toEqual(['permission-1']);
    const { taskId } = sessionOf(first.events);

    const resumed = await run(core, agent, [
      { interruptId: 'permission-1', status: 'resolved', payload: { decision: 'allow_once' } },
    ]);
    expect(resumed.errors).toEqual([]);
    await expectConformantEvents(resumed.events);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(sessionOf(resumed.events).taskId).toBe(taskId);
    expect(agent.pendingInterrupts ?? []).toEqual([]);
    const answers = await answersTo(gateway.upstream, taskId);
    expect(answers).toHaveLength(1);
    expect(JSON.stringify(answers[0])).toContain('allow_once');
  });

  /**
   * What React's useInterrupt does: the answers go out with the runId of the run that raised the interrupt
   * (`runAgent({ runId })` pins it on the wire).
   */
  const resumeWithInterruptedRunId = async (agentId: string) => {
    const { core, agent } = await connect(`copilotkit-same-run-id-${agentId}`, {
      agentId,
      properties: agentId === 'generic' ? {} : { iacCode },
    });
    agent.addMessage({ id: 'user-1', role: 'user', content: 'permission to inspect the workspace' });
    const first = await run(core, agent);
    expect(first.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const { runId } = first.events[0] as BaseEvent & { runId: string };
    const answer = [
      { interruptId: 'permission-1', status: 'resolved' as const, payload: { decision: 'allow_once' } },
    ];
    return { agent, runId, resumed: await run(core, agent, answer, runId) };
  };

  it('accepts a resume with the interrupted run id in generic clients mode, answering with that id', async () => {
    const { agent, runId, resumed } = await resumeWithInterruptedRunId('generic');
    expect(resumed.errors).toEqual([]);
    await expectConformantEvents(resumed.events);
    expect(resumed.events[0]).toMatchObject({ type: 'RUN_STARTED', runId });
    expect(resumed.events.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      runId,
      outcome: { type: 'success' },
    });
    expect(agent.pendingInterrupts ?? []).toEqual([]);
  });

  it('refuses it in strict mode before the stream, which CopilotKit reports as INCOMPLETE_STREAM', async () => {
    // The runtime logs the agent's failure (HttpAgent's rejection with status and payload) on console.error.
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { agent, resumed } = await resumeWithInterruptedRunId('default');
      expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'INCOMPLETE_STREAM' });
      expect((agent.pendingInterrupts as Interrupt[]).map((interrupt) => interrupt.id)).toEqual([
        'permission-1',
      ]);
      expect(logged.mock.calls.flat()).toContainEqual(
        expect.objectContaining({
          status: 409,
          payload: { error: expect.objectContaining({ code: 'RUN_ID_CONFLICT' }) },
        }),
      );
    } finally {
      logged.mockRestore();
    }
  });

  it('after an expiry, an app that clears pendingInterrupts runs its next turn (README, CopilotKit)', async () => {
    const threadId = 'copilotkit-expired';
    const { core, agent } = await connect(threadId, { agentId: 'shortTtl' });
    agent.addMessage({ id: 'user-1', role: 'user', content: 'permission to inspect the workspace' });
    const first = await run(core, agent);
    expect(first.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const [pending] = agent.pendingInterrupts as Interrupt[];
    expect(pending.expiresAt).toEqual(expect.any(String));
    // The interrupt's TTL is the behaviour here: wait for the gateway's expiry to reach the thread's state.
    const endReason = async () =>
      (readThread(shortTtlStateDir, threadId).execution as { endReason?: string }).endReason;
    expect(await eventually(endReason, (reason) => reason === 'expired', 30_000)).toBe('expired');

    // CopilotKit's bundled @ag-ui/client refuses any run while an expired interrupt is pending…
    agent.addMessage({ id: 'user-2', role: 'user', content: 'Create a VPC template' });
    const runsOnThread = () =>
      Object.keys(readThread(shortTtlStateDir, threadId).runDigests as object).length;
    const runsBefore = runsOnThread();
    const refused = await run(core, agent);
    // …silently: no event, no error, and nothing reaches the gateway.
    expect(refused).toEqual({ events: [], errors: [] });
    expect(runsOnThread()).toBe(runsBefore);
    // …so the app clears them (the gateway has already ended that execution) and its next turn runs.
    agent.pendingInterrupts = [];
    const next = await run(core, agent);
    expect(next.errors).toEqual([]);
    await expectConformantEvents(next.events);
    expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(runsOnThread()).toBe(runsBefore + 1);
  });
});
