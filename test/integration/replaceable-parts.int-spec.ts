import { Global, Inject, Injectable, Module } from '@nestjs/common';
import type { BaseEvent } from '@ag-ui/core';
import { mkdtempSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  A2A_GATEWAY,
  AguiGatewayModule,
  CLOCK,
  REQUEST_AUTHENTICATOR,
  RUN_EVENT_HOOKS,
  THREAD_STORE,
  type AguiGatewayOptions,
  type AuthenticationDecision,
  type AuthenticationRequest,
  type Clock,
  type RequestAuthenticator,
  type RunEventHook,
  type RunHookContext,
  type RunOutcomeReport,
} from '../../src/index';
import { FakeClock } from '../support/fakes/fake-clock';
import { InMemoryThreadStore } from '../support/fakes/in-memory-thread-store';
import { ScriptedA2aGateway } from '../support/fakes/scripted-a2a-gateway';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import { startModule, type RunningGateway } from '../support/start-gateway';

/** Lets a request in when it names a user; built by DI (it injects the gateway's CLOCK). */
@Injectable()
class UserHeaderAuthenticator implements RequestAuthenticator {
  static lastInstance: UserHeaderAuthenticator | undefined;
  readonly seen: AuthenticationRequest[] = [];

  constructor(@Inject(CLOCK) readonly clock: Clock) {
    UserHeaderAuthenticator.lastInstance = this;
  }

  authenticate(request: AuthenticationRequest): AuthenticationDecision {
    this.seen.push(request);
    return request.headers['x-test-user']
      ? { isAllowed: true }
      : { isAllowed: false, challenge: 'UserHeader' };
  }
}

/** Records what a hook is given. */
class RecordingHook implements RunEventHook {
  readonly events: BaseEvent[] = [];
  readonly ends: { report: RunOutcomeReport; run: RunHookContext }[] = [];
  onEvent(event: BaseEvent): void {
    this.events.push(event);
  }
  onRunEnd(report: RunOutcomeReport, run: RunHookContext): void {
    this.ends.push({ report, run });
  }
}

/** Options without any environment variable: defaults, a fresh state dir, every part possibly replaced. */
function isolatedOptions(parts: Partial<AguiGatewayOptions>): AguiGatewayOptions {
  return {
    environment: {},
    // `auto` with no A2A URL and no PATH would refuse to start: only a replaced A2A gateway gets past it.
    config: { stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-parts-')), allowedCwdRoots: [os.tmpdir()] },
    ...parts,
  };
}

const withUser = { headers: { 'x-test-user': 'alice' } };

describe('AguiGatewayModule with every default replaced', () => {
  const clock = new FakeClock(Date.UTC(2030, 0, 2, 3, 4, 5));
  const store = new InMemoryThreadStore();
  const a2a = new ScriptedA2aGateway(['Replaced ', 'parts.']);
  const hook = new RecordingHook();
  const options = isolatedOptions({
    authenticator: { useClass: UserHeaderAuthenticator },
    threadStore: { useValue: store },
    a2aGateway: { useFactory: () => a2a },
    clock: { useFactory: (fixed: Clock) => fixed, inject: ['FIXED_CLOCK'] },
    eventHooks: [{ useValue: hook }],
  });
  let gateway: RunningGateway;

  @Global()
  @Module({ providers: [{ provide: 'FIXED_CLOCK', useValue: clock }], exports: ['FIXED_CLOCK'] })
  class FixedClockModule {}

  beforeAll(async () => {
    gateway = await startModule([FixedClockModule, AguiGatewayModule.forRoot(options)]);
  });
  afterAll(() => gateway.close());

  it('resolves each token to the replacement', () => {
    const get = (token: symbol) => gateway.app.get(token, { strict: false });
    expect(get(THREAD_STORE)).toBe(store);
    expect(get(A2A_GATEWAY)).toBe(a2a);
    expect(get(CLOCK)).toBe(clock);
    expect(get(REQUEST_AUTHENTICATOR)).toBeInstanceOf(UserHeaderAuthenticator);
    expect(get(RUN_EVENT_HOOKS)).toEqual([hook]);
    // useClass is built by dependency injection inside the gateway: it got the replaced clock.
    expect(UserHeaderAuthenticator.lastInstance?.clock).toBe(clock);
  });

  it('refuses a request the replaced authenticator refuses, with its challenge', async () => {
    const response = await postRun(gateway.url, runInput({ threadId: 'parts-refused' }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('UserHeader');
    expect(response.text).toContain('UNAUTHORIZED');
    expect(store.documents.has('parts-refused')).toBe(false);
  });

  it('runs through the replaced authenticator, A2A gateway, store, clock and hook', async () => {
    const response = await postRun(gateway.url, runInput({ threadId: 'parts-1', runId: 'run-p1' }), withUser);

    expect(response.status).toBe(200);
    const types = response.events.map((event) => event.type);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    const text = response.events
      .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
      .map((event) => (event as BaseEvent & { delta: string }).delta)
      .join('');
    expect(text).toBe('Replaced parts.');
    // Authenticator: asked once, with the run route and the user header.
    expect(UserHeaderAuthenticator.lastInstance?.seen.at(-1)).toMatchObject({
      transport: 'http',
      method: 'POST',
      url: '/',
      headers: expect.objectContaining({ 'x-test-user': 'alice' }),
    });
    // A2A gateway: it got the run's message, in the thread's A2A context.
    expect(a2a.sentMessages).toHaveLength(1);
    expect(a2a.sentMessages[0].parts).toEqual([{ text: 'hello' }]);
    // Clock: every timestamp is the pinned time.
    expect(new Set(response.events.map((event) => event.timestamp))).toEqual(new Set([clock.now()]));
    // Store: the thread lives in the in-memory store, and nothing was written to the state dir.
    const saved = JSON.parse(store.documents.get('parts-1') ?? '{}') as { contextId?: string };
    expect(saved.contextId).toBe(a2a.sentMessages[0].contextId);
    expect(readdirSync(options.config?.stateDir ?? '')).toEqual([]);
    // Hook: the same events as the client, then one success outcome at the pinned time.
    const ended = await eventually(
      async () => hook.ends,
      (ends) => ends.length === 1,
    );
    expect(hook.events.map((event) => event.type)).toEqual(types);
    expect(ended[0]).toEqual({
      report: { outcome: 'success', endedAtMs: clock.now(), eventCount: types.length },
      run: expect.objectContaining({ threadId: 'parts-1', runId: 'run-p1', face: 'iac-code' }),
    });
  });

  it('starts no upstream for a replaced A2A gateway: /health names it custom', async () => {
    const health = (await (await fetch(`${gateway.url}health`)).json()) as { upstream: string };
    expect(health.upstream).toBe('custom');
  });
});

/** A hook whose every call fails in one way. */
const failingHooks: { name: string; hook: RunEventHook; logged: boolean }[] = [
  {
    name: 'onEvent throws synchronously',
    hook: {
      onEvent: () => {
        throw new Error('sync hook failure');
      },
    },
    logged: true,
  },
  {
    name: 'onEvent rejects',
    hook: { onEvent: () => Promise.reject(new Error('async hook failure')) },
    logged: true,
  },
  {
    name: 'onRunEnd throws synchronously',
    hook: {
      onRunEnd: () => {
        throw new Error('sync end failure');
      },
    },
    logged: true,
  },
  {
    name: 'onEvent never settles',
    hook: { onEvent: () => new Promise<void>(() => undefined) },
    logged: false,
  },
];

describe('a failing event hook does not disturb the stream', () => {
  it.each(failingHooks)('$name', async ({ hook, logged }) => {
    const after = new RecordingHook();
    const gateway = await startModule([
      AguiGatewayModule.forRoot(
        isolatedOptions({
          threadStore: { useValue: new InMemoryThreadStore() },
          a2aGateway: { useValue: new ScriptedA2aGateway() },
          eventHooks: [{ useValue: hook }, { useValue: after }],
        }),
      ),
    ]);
    try {
      const response = await postRun(gateway.url, runInput({ threadId: 'hook-fails' }));

      expect(response.status).toBe(200);
      const types = response.events.map((event) => event.type);
      expect(types[0]).toBe('RUN_STARTED');
      expect(types.at(-1)).toBe('RUN_FINISHED');
      expect(types).toContain('TEXT_MESSAGE_CONTENT');
      expect(types).not.toContain('RUN_ERROR');
      expect(response.text).not.toContain('hook failure');
      // The hook after the failing one still saw everything.
      const ends = await eventually(
        async () => after.ends,
        (all) => all.length === 1,
      );
      expect(after.events.map((event) => event.type)).toEqual(types);
      expect(ends[0].report.outcome).toBe('success');
      const failures = await eventually(
        async () => gateway.logs.filter((line) => line.includes('run event hook failed')),
        (lines) => lines.length > 0 || !logged,
      );
      // Logged once per hook and run, however many events failed.
      expect(failures).toHaveLength(logged ? 1 : 0);
    } finally {
      await gateway.close();
    }
  });
});

describe('AguiGatewayModule.forRootAsync', () => {
  const AUDIT_SINK = Symbol('AUDIT_SINK');
  @Module({ providers: [{ provide: AUDIT_SINK, useValue: new RecordingHook() }], exports: [AUDIT_SINK] })
  class AuditModule {}

  it('builds options from an injected host provider (a non-global module, via imports)', async () => {
    const a2a = new ScriptedA2aGateway(['async']);
    const gateway = await startModule([
      AguiGatewayModule.forRootAsync({
        imports: [AuditModule],
        inject: [AUDIT_SINK],
        useFactory: async (sink: RecordingHook) =>
          isolatedOptions({
            threadStore: { useValue: new InMemoryThreadStore() },
            a2aGateway: { useValue: a2a },
            eventHooks: [{ useValue: sink }],
          }),
      }),
    ]);
    try {
      const response = await postRun(gateway.url, runInput({ threadId: 'async-options' }));
      expect(response.events.at(-1)?.type).toBe('RUN_FINISHED');
      const sink = gateway.app.get<RecordingHook>(AUDIT_SINK, { strict: false });
      const ends = await eventually(
        async () => sink.ends,
        (all) => all.length === 1,
      );
      expect(ends[0].run.threadId).toBe('async-options');
      expect(a2a.sentMessages).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });
});
