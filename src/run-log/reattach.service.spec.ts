import { loadConfig, type HostFacts } from '../config/load-config';
import { threadStateFixture } from '../../test/support/thread-state-fixture';
import { RecordingSink } from '../../test/support/fakes/recording-sink';
import { AguiError } from '../common/agui-error';
import { ReattachService, type ReattachRequest } from './reattach.service';
import { RunLogRegistry } from './run-log-registry';

const HOST: HostFacts = {
  cwd: '/srv',
  tmpDir: '/tmp',
  homeDir: '/home/agui',
  pathDelimiter: ':',
  isTty: false,
};
const TOKEN = '0123456789abcdef';
const data = (type: string) => `data: ${JSON.stringify({ type, timestamp: 1 })}\n\n`;

function setUp(sessionId?: string, principal?: string, env: Record<string, string> = {}) {
  const config = loadConfig({ IAC_CODE_AGUI_REATTACH_SECONDS: '30', ...env }, HOST);
  const logs = new RunLogRegistry(config);
  const state = {
    ...threadStateFixture(),
    ...(sessionId ? { agentCoreSessionId: sessionId } : {}),
    ...(principal ? { principal } : {}),
  };
  const left: string[] = [];
  const run = logs.retain(
    {
      threadId: state.threadId,
      runId: 'run-1',
      executionId: state.execution.executionId,
      runToken: TOKEN,
      admittedState: state,
    },
    () => left.push('left'),
  );
  if (!run) throw new Error('reattaching is on');
  const service = new ReattachService(logs);
  const request = (overrides: Partial<ReattachRequest> = {}): ReattachRequest => ({
    target: { executionId: state.execution.executionId },
    rosInvocationId: state.execution.rosInvocationId,
    agentCoreSessionId: null,
    cursor: undefined,
    ...overrides,
  });
  return { run, service, request, state, left };
}

const codeOf = async (admit: () => Promise<unknown>) => {
  try {
    await admit();
    return 'admitted';
  } catch (error) {
    return error instanceof AguiError ? error.code : String(error);
  }
};

describe('ReattachService (docs/behaviour/reattach.md#refusals)', () => {
  it('follows the run from the cursor to its end, and counts as a reader while it does', async () => {
    const { run, service, request } = setUp();
    for (const type of ['RUN_STARTED', 'A', 'B']) run.append({ id: `${TOKEN}.x`, data: data(type) });
    const sink = new RecordingSink();
    const follower = (await service.admit(request({ cursor: `${TOKEN}.1` }))).follow(sink);
    expect(run.readerCount).toBe(2);
    await sink.written(2);
    run.append({ id: `${TOKEN}.x`, data: data('RUN_FINISHED') });
    run.runEnded();
    await follower.done;
    expect(sink.types()).toEqual(['A', 'B', 'RUN_FINISHED']);
    expect(sink.isEnded).toBe(true);
    expect(run.readerCount).toBe(1);
  });

  it('refuses each mismatch with its code, an unproven caller like an unknown execution', async () => {
    const { service, request, run } = setUp('session-a');
    run.append({ id: `${TOKEN}.1`, data: data('RUN_STARTED') });
    expect(await codeOf(() => service.admit(request({ rosInvocationId: 'other' })))).toBe(
      'EXECUTION_NOT_FOUND',
    );
    expect(await codeOf(() => service.admit(request({ target: { executionId: 'nope' } })))).toBe(
      'EXECUTION_NOT_FOUND',
    );
    expect(await codeOf(() => service.admit(request({ target: { threadId: 'nope' } })))).toBe(
      'EXECUTION_NOT_FOUND',
    );
    expect(await codeOf(() => service.admit(request({ agentCoreSessionId: 'session-b' })))).toBe(
      'EXECUTION_NOT_FOUND',
    );
    expect(await codeOf(() => service.admit(request()))).toBe('EXECUTION_NOT_FOUND');
    expect(await codeOf(() => service.admit(request({ agentCoreSessionId: 'session-a' })))).toBe('admitted');
    expect(await codeOf(() => service.admit(request({ rosInvocationId: undefined })))).toBe('INVALID_INPUT');
    expect(await codeOf(() => service.admit(request({ agentCoreSessionId: 'session-a', cursor: 'x' })))).toBe(
      'INVALID_INPUT',
    );
    expect(
      await codeOf(() => service.admit(request({ agentCoreSessionId: 'session-a', cursor: `${TOKEN}.9` }))),
    ).toBe('INVALID_INPUT');
    expect(
      await codeOf(() =>
        service.admit(request({ agentCoreSessionId: 'session-a', cursor: 'ffffffffffffffff.1' })),
      ),
    ).toBe('EVENTS_EXPIRED');
  });

  it("answers another caller's thread on the thread route as the run route does, on the execution route as not found", async () => {
    const { service, request, state } = setUp(undefined, 'alice');
    const thread = { threadId: state.threadId };
    expect(await codeOf(() => service.admit(request({ target: thread, principal: 'bob' })))).toBe(
      'THREAD_BINDING_CONFLICT',
    );
    expect(await codeOf(() => service.admit(request({ principal: 'bob' })))).toBe('EXECUTION_NOT_FOUND');
    expect(await codeOf(() => service.admit(request({ target: thread, principal: 'alice' })))).toBe(
      'admitted',
    );
  });

  it('refuses a rosInvocationId over the id bound as the path id: 400', async () => {
    const { service, request } = setUp();
    expect(await codeOf(() => service.admit(request({ rosInvocationId: 'r'.repeat(1024) })))).toBe(
      'EXECUTION_NOT_FOUND',
    );
    const refusal = service.admit(request({ rosInvocationId: 'r'.repeat(1025) }));
    await expect(refusal).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      messageKey: 'reattachIdentityTooLong',
    });
  });

  it('a cursor the log moved past is told so (410), inside the window it is followed', async () => {
    const { run, service, request } = setUp(undefined, undefined, { IAC_CODE_AGUI_REATTACH_MAX_EVENTS: '2' });
    run.readerLeft();
    for (const type of ['RUN_STARTED', 'A', 'B', 'C']) run.append({ id: `${TOKEN}.x`, data: data(type) });
    const ask = (cursor: string) => service.admit(request({ cursor }));
    await expect(ask(`${TOKEN}.1`)).rejects.toMatchObject({
      code: 'EVENTS_EXPIRED',
      messageKey: 'eventsMovedOn',
    });
    expect(await codeOf(() => ask(`${TOKEN}.2`))).toBe('admitted');
    expect(run.abandoned).toBe(false);
  });
});
