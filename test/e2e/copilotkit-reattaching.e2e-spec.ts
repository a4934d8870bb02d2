import type { BaseEvent } from '@ag-ui/client';
import * as os from 'node:os';
import { ReattachingHttpAgent } from '../../src/client';
import { sessionOf } from '../support/interrupt-helpers';
import { useGateway } from '../support/use-gateway';

type CopilotKitCore = import('@copilotkit/core').CopilotKitCore;

/**
 * CopilotKit's headless core (`@copilotkit/core`, the devDependency's 1.75) driving ReattachingHttpAgent
 * directly, as an app registers it (docs/clients.md "CopilotKit"), against a gateway with the window on
 * (docs/behaviour/reattach.md#the-client): its Stop cancels, and opening a quiet thread is not an error.
 */
describe('CopilotKitCore over ReattachingHttpAgent, window on', () => {
  const gateway = useGateway({ upstream: true, env: { IAC_CODE_AGUI_REATTACH_SECONDS: '30' } });
  const iacCode = { schemaVersion: 1, rosInvocationId: 'invocation-ck-reattach', cwd: os.tmpdir() };
  // CopilotKit reports usage to its servers unless told not to; nothing here may leave the machine.
  const telemetryOptOut = { COPILOTKIT_TELEMETRY_DISABLED: 'true', DO_NOT_TRACK: '1' };
  const environmentBefore = Object.fromEntries(
    Object.keys(telemetryOptOut).map((name) => [name, process.env[name]]),
  );
  beforeAll(() => void Object.assign(process.env, telemetryOptOut));
  afterAll(() => {
    for (const [name, value] of Object.entries(environmentBefore)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** A core with the agent registered locally, and every error the core reports. */
  const coreWith = async (threadId: string) => {
    const { CopilotKitCore } = await import('@copilotkit/core');
    const agent = new ReattachingHttpAgent({ url: gateway.url, threadId });
    const core: CopilotKitCore = new CopilotKitCore({
      agents__unsafe_dev_only: { iac: agent as never },
      properties: { iacCode },
    });
    const errors: { code: string; error: Error }[] = [];
    core.subscribe({ onError: ({ code, error }) => void errors.push({ code, error }) });
    return { core, agent, errors };
  };
  const say = (agent: ReattachingHttpAgent, text: string) =>
    agent.addMessage({ id: `user-${Math.random().toString(16).slice(2)}`, role: 'user', content: text });
  const cancelsOf = async (taskId: string) =>
    (await gateway.upstream.requests()).filter(
      (entry) =>
        entry.rpcMethod === 'CancelTask' &&
        (entry.body as { params?: { id?: string } }).params?.id === taskId,
    );

  it('Stop during a slow run cancels it: the next prompt on the thread streams (no 409), one CancelTask', async () => {
    const { core, agent, errors } = await coreWith('ck-stop');
    const first: BaseEvent[] = [];
    let isStreaming!: () => void;
    const streaming = new Promise<void>((resolve) => (isStreaming = resolve));
    const watch = agent.subscribe({
      onEvent: ({ event }) => {
        first.push(event);
        if (event.type === 'TEXT_MESSAGE_CONTENT') isStreaming();
      },
    });
    say(agent, 'slow');
    const running = core.runAgent({ agent: agent as never });
    await streaming;
    core.stopAgent({ agent: agent as never });
    await running;
    watch.unsubscribe();
    const { taskId } = sessionOf(first);
    expect(taskId).toEqual(expect.any(String));
    expect(first.at(-1)).toEqual(expect.objectContaining({ type: 'RUN_ERROR', code: 'CANCELLED' }));

    const second: BaseEvent[] = [];
    const next = agent.subscribe({ onEvent: ({ event }) => void second.push(event) });
    say(agent, 'hello again');
    await core.runAgent({ agent: agent as never });
    next.unsubscribe();
    expect(second[0]?.type).toBe('RUN_STARTED');
    expect(second.at(-1)?.type).toBe('RUN_FINISHED');
    expect(second.some((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toBe(true);
    expect(errors).toEqual([]);
    expect(await cancelsOf(taskId)).toHaveLength(1);
  });

  it('opening a thread with nothing in flight reports no error', async () => {
    const { core, agent, errors } = await coreWith('ck-quiet');
    const events: BaseEvent[] = [];
    agent.subscribe({ onEvent: ({ event }) => void events.push(event) });
    const result = await core.connectAgent({ agent: agent as never });
    expect(result.newMessages).toEqual([]);
    expect(events).toEqual([]);
    expect(errors).toEqual([]);
  });
});
