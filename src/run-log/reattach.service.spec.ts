import { loadConfig, type HostFacts } from '../config/load-config';
import { threadStateFixture } from '../../test/support/thread-state-fixture';
import { RecordingSink } from '../../test/support/fakes/recording-sink';
import { AguiError } from '../common/agui-error';
import { ReattachService, type ReattachRequest } from './reattach.service';
import { RunLogRegistry } from './run-log-registry';
import type { SharedRun, SharedRunLog } from './shared-run-log';

const HOST: HostFacts = {
  cwd: '/srv',
  tmpDir: '/tmp',
  homeDir: '/home/agui',
  pathDelimiter: ':',
  isTty: false,
};
const TOKEN = '0123456789abcdef';
const data = (type: string) => `data: ${JSON.stringify({ type, timestamp: 1 })}\n\n`;

const config = (env: Record<string, string> = {}) =>
  loadConfig({ IAC_CODE_AGUI_REATTACH_SECONDS: '30', ...env }, HOST);

/**
 * `principal`: who opened the thread (docs/behaviour/state.md#caller-binding); `sessionId`: its AgentCore session;
 * `env`: more settings.
 */
function setUp({
  sessionId,
  principal,
  env,
}: { sessionId?: string; principal?: string; env?: Record<string, string> } = {}) {
  const logs = new RunLogRegistry(config(env));
  const state = {
    ...threadStateFixture(),
    ...(sessionId ? { agentCoreSessionId: sessionId } : {}),
    ...(principal ? { principal } : {}),
  };
  const left: string[] = [];
  const identity = {
    threadId: state.threadId,
    runId: 'run-1',
    executionId: state.execution.executionId,
    runToken: TOKEN,
    admittedState: state,
  };
  const run = logs.retain(identity, () => left.push('left'));
  if (!run) throw new Error('reattaching is on');
  const service = new ReattachService(logs);
  const request = (overrides: Partial<ReattachRequest> = {}): ReattachRequest => ({
    target: { executionId: state.execution.executionId },
    rosInvocationId: state.execution.rosInvocationId,
    agentCoreSessionId: null,
    cursor: undefined,
    ...overrides,
  });
  return { run, service, request, state, left, identity };
}

/** What a refused caller learns: the code and the message (the HTTP status follows from the code). */
const refusalOf = async (admit: () => Promise<unknown>) => {
  try {
    await admit();
    return 'admitted';
  } catch (error) {
    return error instanceof AguiError ? { code: error.code, messageKey: error.messageKey } : String(error);
  }
};

const codeOf = async (admit: () => Promise<unknown>) => {
  const refusal = await refusalOf(admit);
  return typeof refusal === 'string' ? refusal : refusal.code;
};

/** The shared log (Redis mode) as another replica's retained run leaves it: `find` answers for that run only. */
function sharedLogHolding(run: SharedRun): SharedRunLog {
  const { executionId, threadId } = run.identity;
  return {
    started: () => undefined,
    appended: () => undefined,
    ended: () => undefined,
    dropped: () => undefined,
    find: (target) =>
      Promise.resolve(
        ('executionId' in target ? target.executionId === executionId : target.threadId === threadId)
          ? run
          : undefined,
      ),
    remoteWindowLeftMs: () => Promise.resolve(0),
    follow: () => {
      throw new Error('an admitted reattach is not followed in these cases');
    },
  };
}

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
    const { service, request, run } = setUp({ sessionId: 'session-a' });
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
    const { service, request, state } = setUp({ principal: 'alice' });
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
    const { run, service, request } = setUp({ env: { IAC_CODE_AGUI_REATTACH_MAX_EVENTS: '2' } });
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

  describe("another caller's thread (docs/behaviour/state.md#caller-binding)", () => {
    /** Each way to name alice's run: its execution and its thread. */
    const targetsOf = (state: ReturnType<typeof setUp>['state']) => [
      { executionId: state.execution.executionId },
      { threadId: state.threadId },
    ];

    /** The execution route answers as for an unknown run; the thread route as the run route does. */
    const refusalFor = (target: object, unknown: unknown) =>
      'threadId' in target
        ? { code: 'THREAD_BINDING_CONFLICT', messageKey: 'threadBindingConflict' }
        : unknown;

    it('refuses another principal and an anonymous caller (by execution: the very 404 of an unknown run), and admits its owner', async () => {
      const { service, request, state } = setUp({ principal: 'alice' });
      const unknown = await refusalOf(() =>
        service.admit(request({ target: { executionId: 'nope' }, principal: 'alice' })),
      );
      expect(unknown).toEqual({ code: 'EXECUTION_NOT_FOUND', messageKey: 'executionNotFound' });
      for (const target of targetsOf(state)) {
        expect(await refusalOf(() => service.admit(request({ target, principal: 'mallory' })))).toEqual(
          refusalFor(target, unknown),
        );
        expect(await refusalOf(() => service.admit(request({ target })))).toEqual(
          refusalFor(target, unknown),
        );
        expect(await refusalOf(() => service.admit(request({ target, principal: 'alice' })))).toBe(
          'admitted',
        );
      }
    });

    it('refuses it the same way when another replica runs it (the shared log found it)', async () => {
      const { request, state, identity } = setUp({ principal: 'alice' });
      const elsewhere = new RunLogRegistry(
        config(),
        sharedLogHolding({ identity, firstHeld: 1, lastSequence: 0 }),
      );
      const service = new ReattachService(elsewhere);
      for (const target of targetsOf(state)) {
        expect(await codeOf(() => service.admit(request({ target, principal: 'mallory' })))).toBe(
          'threadId' in target ? 'THREAD_BINDING_CONFLICT' : 'EXECUTION_NOT_FOUND',
        );
        expect(await codeOf(() => service.admit(request({ target, principal: 'alice' })))).toBe('admitted');
      }
    });
  });
});
