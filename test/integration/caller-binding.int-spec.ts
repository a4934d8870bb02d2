import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Injectable } from '@nestjs/common';
import type { BaseEvent } from '@ag-ui/core';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import {
  AguiGatewayModule,
  RUN_EVENT_HOOKS,
  type AuthenticationDecision,
  type AuthenticationRequest,
  type RequestAuthenticator,
  type RunEventHook,
  type RunHookContext,
} from '../../src/index';
import { InMemoryThreadStore } from '../support/fakes/in-memory-thread-store';
import { ScriptedA2aGateway } from '../support/fakes/scripted-a2a-gateway';
import { sessionOf } from '../support/interrupt-helpers';
import { runInput } from '../support/run-input';
import { eventually, openEvents, postRun } from '../support/sse-client';
import { startModule, type RunningGateway } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';
import { WsRunClient } from '../support/ws-client';

/** How a test speaks as one caller: the HTTP headers, and how to open `/ws` as them. */
interface Caller {
  readonly headers: Record<string, string>;
  readonly ws: { headers?: Record<string, string>; protocols?: string[] };
}

/** Records the run context of every run end a hook is told of. */
class RunEndRecorder implements RunEventHook {
  readonly runs: RunHookContext[] = [];
  onRunEnd(_report: unknown, run: RunHookContext): void {
    this.runs.push(run);
  }
}

const lastOf = (events: readonly BaseEvent[]) => events.at(-1) as BaseEvent & { code?: string };

/**
 * docs/behaviour/state.md#caller-binding, the same on every route: bob opens a thread; alice, whatever
 * `userId` she writes, can neither continue it (`/`, `/invocations`, `/ws`), nor cancel it, nor reattach to
 * its run (both reattach routes, within the window the gateways below keep ended runs for); bob still can.
 */
function itBindsThreadsToTheirCaller(
  setup: () => { gateway: RunningGateway; hook: RunEndRecorder; as: (name: string) => Promise<Caller> },
) {
  it("refuses alice on bob's thread on /, /invocations, /ws, the cancel and reattach routes; bob goes on; hooks see him", async () => {
    const { gateway, hook, as } = setup();
    const [alice, bob] = [await as('alice'), await as('bob')];
    const threadId = `bound-${Math.random().toString(36).slice(2)}`;
    const asBob = { userId: 'bob' };
    const opened = await postRun(gateway.url, runInput({ threadId, runId: 'b-1', iacCode: asBob }), bob);
    expect(lastOf(opened.events).type).toBe('RUN_FINISHED');
    const { executionId } = sessionOf(opened.events);

    const onRoot = await postRun(gateway.url, runInput({ threadId, runId: 'a-1', iacCode: asBob }), alice);
    expect(onRoot.status).toBe(409);
    expect(JSON.parse(onRoot.text)).toMatchObject({ error: { code: 'THREAD_BINDING_CONFLICT' } });
    const onInvocations = await postRun(
      `${gateway.url}invocations`,
      runInput({ threadId, runId: 'a-2', iacCode: asBob }),
      alice,
    );
    expect(onInvocations.status).toBe(409);
    expect(lastOf(onInvocations.events)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'THREAD_BINDING_CONFLICT',
    });
    // Alice's own userId does not help either: the thread is bob's, not his userId's.
    const asHerself = await postRun(gateway.url, runInput({ threadId, runId: 'a-3' }), alice);
    expect(asHerself.status).toBe(409);

    const socket = await WsRunClient.open(gateway.url, alice.ws);
    try {
      socket.send(runInput({ threadId, runId: 'a-4', iacCode: asBob }));
      expect(lastOf(await socket.nextRun())).toMatchObject({
        type: 'RUN_ERROR',
        code: 'THREAD_BINDING_CONFLICT',
      });
    } finally {
      socket.socket.terminate();
    }

    const query = 'rosInvocationId=invocation-1';
    // The execution route answers another caller's run as the cancel extension does (not found); the thread
    // route as the run route does (docs/behaviour/state.md#caller-binding), so a client can tell it from a
    // quiet thread.
    const reattachRoutes = [
      {
        route: `${gateway.url}extensions/iac-code/v1/executions/${executionId}/events?${query}`,
        refusal: { status: 404, code: 'EXECUTION_NOT_FOUND' },
      },
      {
        route: `${gateway.url}extensions/iac-code/v1/threads/${threadId}/events?${query}`,
        refusal: { status: 409, code: 'THREAD_BINDING_CONFLICT' },
      },
    ];
    for (const { route, refusal } of reattachRoutes) {
      const notHers = await fetch(route, { headers: alice.headers });
      expect(notHers.status).toBe(refusal.status);
      expect(await notHers.json()).toMatchObject({ error: { code: refusal.code } });
      const his = await openEvents(route, bob).finished;
      expect(his.status).toBe(200);
      expect(his.events.map((event) => event.type)).toEqual(opened.events.map((event) => event.type));
    }

    const cancel = (caller: Caller) =>
      fetch(`${gateway.url}extensions/iac-code/v1/executions/${executionId}/cancel`, {
        method: 'POST',
        headers: { ...caller.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ threadId, rosInvocationId: 'invocation-1' }),
      });
    const refused = await cancel(alice);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { code: 'EXECUTION_NOT_FOUND' } });
    const owned = await cancel(bob);
    expect(owned.status).toBe(200);
    expect(await owned.json()).toEqual({ executionId, status: 'already_terminal' });

    const bobSocket = await WsRunClient.open(gateway.url, bob.ws);
    try {
      bobSocket.send(runInput({ threadId, runId: 'b-2', iacCode: asBob }));
      expect(lastOf(await bobSocket.nextRun()).type).toBe('RUN_FINISHED');
    } finally {
      bobSocket.socket.terminate();
    }
    const ended = await eventually(
      async () => hook.runs.filter((run) => run.threadId === threadId),
      (runs) => runs.length === 2,
    );
    expect(ended.map(({ runId, face, principal }) => ({ runId, face, principal }))).toEqual([
      { runId: 'b-1', face: 'iac-code', principal: 'bob' },
      { runId: 'b-2', face: 'ws', principal: 'bob' },
    ]);
  });
}

describe('caller binding in JWT mode (the token’s sub)', () => {
  let jwks: Server;
  let jwksUrl: string;
  let signingKey: CryptoKey;
  const hook = new RunEndRecorder();

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k', alg: 'RS256', use: 'sig' };
    jwks = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
  });
  const gateway = useGateway({
    upstream: true,
    env: () => ({
      IAC_CODE_AGUI_JWT_JWKS_URL: jwksUrl,
      IAC_CODE_AGUI_AUTH_TOKEN: 'static-service-token',
      // Ended runs stay reattachable this long, so the scenario can try the reattach routes after the run.
      IAC_CODE_AGUI_REATTACH_SECONDS: '30',
    }),
    configure: (builder) => builder.overrideProvider(RUN_EVENT_HOOKS).useValue([hook]),
  });
  afterAll(() => new Promise((resolve) => jwks?.close(resolve)));

  const tokenFor = (sub: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'k' })
      .setSubject(sub)
      .setExpirationTime('5m')
      .sign(signingKey);
  const bearer = (token: string): Caller => ({
    headers: { authorization: `Bearer ${token}` },
    ws: {
      protocols: [
        `base64UrlBearerAuthorization.${Buffer.from(token).toString('base64url')}`,
        'base64UrlBearerAuthorization',
      ],
    },
  });

  itBindsThreadsToTheirCaller(() => ({ gateway, hook, as: async (name) => bearer(await tokenFor(name)) }));

  it("refuses the static token (no principal) on a principal's thread, and keeps its own threads open", async () => {
    const bob = bearer(await tokenFor('bob'));
    const service = bearer('static-service-token');
    const owned = await postRun(gateway.url, runInput({ threadId: 'jwt-owned', runId: 'r-1' }), bob);
    expect(owned.status).toBe(200);
    const refused = await postRun(gateway.url, runInput({ threadId: 'jwt-owned', runId: 'r-2' }), service);
    expect(refused.status).toBe(409);
    // A thread opened without a principal (as every thread written before principals existed) stays open.
    const open = await postRun(gateway.url, runInput({ threadId: 'jwt-open', runId: 'r-1' }), service);
    expect(lastOf(open.events).type).toBe('RUN_FINISHED');
    const continued = await postRun(gateway.url, runInput({ threadId: 'jwt-open', runId: 'r-2' }), bob);
    expect(lastOf(continued.events).type).toBe('RUN_FINISHED');
  });

  it('refuses a verified token without the principal claim', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'k' })
      .setExpirationTime('5m')
      .sign(signingKey);
    const response = await postRun(gateway.url, runInput({ threadId: 'jwt-nosub' }), bearer(token));
    expect(response.status).toBe(401);
  });
});

/** A host's authenticator: the ingress names the user in a header; an unknown one gets the host's own 401 text. */
@Injectable()
class IngressUserAuthenticator implements RequestAuthenticator {
  authenticate(request: AuthenticationRequest): AuthenticationDecision {
    const user = request.headers['x-ingress-user'];
    return typeof user === 'string'
      ? { isAllowed: true, principal: user }
      : { isAllowed: false, message: 'Sign in through the company portal.' };
  }
}

describe('caller binding with a custom authenticator (its own principal)', () => {
  const hook = new RunEndRecorder();
  const store = new InMemoryThreadStore();
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startModule([
      AguiGatewayModule.forRoot({
        environment: { IAC_CODE_AGUI_PRINCIPAL_USER_ID: 'fill', IAC_CODE_AGUI_REATTACH_SECONDS: '30' },
        config: {
          stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-caller-')),
          allowedCwdRoots: [os.tmpdir()],
        },
        authenticator: { useClass: IngressUserAuthenticator },
        a2aGateway: { useFactory: () => new ScriptedA2aGateway(['ok']) },
        threadStore: { useValue: store },
        eventHooks: [{ useValue: hook }],
      }),
    ]);
  });
  afterAll(() => gateway.close());

  const as = async (name: string): Promise<Caller> => ({
    headers: { 'x-ingress-user': name },
    ws: { headers: { 'x-ingress-user': name } },
  });
  itBindsThreadsToTheirCaller(() => ({ gateway, hook, as }));

  it('hands the principal to the store with the thread, and fills userId from it (fill)', async () => {
    const response = await postRun(
      gateway.url,
      runInput({ threadId: 'stored-principal', iacCode: { userId: 'someone-else' } }),
      { headers: { 'x-ingress-user': 'carol' } },
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(store.documents.get('stored-principal') ?? '{}')).toMatchObject({
      principal: 'carol',
      userId: 'carol',
    });
  });

  it("answers a refusal with the authenticator's own 401 message, on HTTP and the /ws handshake", async () => {
    const response = await postRun(gateway.url, runInput({ threadId: 'refused' }));
    expect(response.status).toBe(401);
    expect(JSON.parse(response.text)).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'Sign in through the company portal.' },
    });
    const handshake = await WsRunClient.refusal(gateway.url);
    expect(handshake).toMatchObject({ status: 401, body: 'Sign in through the company portal.' });
    expect(handshake.headers['content-type']).toBe('text/plain; charset=utf-8');
  });
});
