import { mkdtempSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AuditLine } from '../../examples/host-app/src/audit-log-hook';
import { AGENT_ROUTE_PREFIX, HostAppModule } from '../../examples/host-app/src/host-app.module';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import { startModule, type RunningGateway } from '../support/start-gateway';

/** The worked example of docs/extending.md "Extending", run the way its main.ts runs it (body parser on). */
describe('examples/host-app', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'agui-host-app-'));
  const auditLogPath = path.join(directory, 'audit.jsonl');
  let host: RunningGateway;
  let agentUrl: string;

  beforeAll(async () => {
    host = await startModule(
      [
        HostAppModule.register({
          auditLogPath,
          // No environment variable is read: the demo upstream and a private state dir, from options only.
          environment: { IAC_CODE_AGUI_UPSTREAM: 'demo', IAC_CODE_AGUI_PLAYGROUND: 'false' },
          config: { stateDir: path.join(directory, 'state'), allowedCwdRoots: [os.tmpdir()] },
        }),
      ],
      { bodyParser: true },
    );
    agentUrl = new URL(AGENT_ROUTE_PREFIX.slice(1), host.url).href;
  });
  afterAll(() => host.close());

  const auditLines = (): AuditLine[] => {
    try {
      return readFileSync(auditLogPath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AuditLine);
    } catch {
      return [];
    }
  };

  it('runs end to end through the prefixed route with the header identity, and audits the outcome', async () => {
    const response = await postRun(agentUrl, runInput({ threadId: 'host-thread', runId: 'host-run' }), {
      headers: { 'x-user-id': 'alice@example.com' },
    });

    expect(response.status).toBe(200);
    const types = response.events.map((event) => event.type);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types).toContain('TOOL_CALL_RESULT');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    const lines = await eventually(
      async () => auditLines(),
      (all) => all.length === 1,
    );
    expect(lines).toEqual([
      {
        threadId: 'host-thread',
        runId: 'host-run',
        executionId: expect.any(String),
        face: 'iac-code',
        outcome: 'success',
        startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        endedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        events: types.length,
      },
    ]);
  });

  it.each<{ name: string; headers: Record<string, string> }>([
    { name: 'no identity header', headers: {} },
    { name: 'a malformed identity', headers: { 'x-user-id': 'bob smith' } },
    { name: 'only a bearer token', headers: { authorization: 'Bearer anything' } },
  ])('refuses a run with $name (401, JSON envelope), before the body is read', async ({ headers }) => {
    const response = await postRun(agentUrl, runInput({ threadId: 'host-refused' }), { headers });
    expect(response.status).toBe(401);
    expect(JSON.parse(response.text)).toEqual({
      error: { code: 'UNAUTHORIZED', message: expect.any(String) },
    });
  });

  it('mounts every gateway HTTP route under the prefix and none at the root', async () => {
    const health = await fetch(`${agentUrl}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { upstream: string }).upstream).toBe('demo');
    const atRoot = await fetch(new URL('health', host.url));
    expect(atRoot.status).toBe(404);
    const runAtRoot = await postRun(host.url, runInput(), { headers: { 'x-user-id': 'alice' } });
    expect(runAtRoot.status).toBe(404);
  });

  it.each([
    { name: 'a body the gateway would refuse', body: { threadId: 5, tools: ['x'], forwardedProps: 'no' } },
    { name: 'an array', body: [1, 'two', { three: 3 }] },
    { name: 'an empty object', body: {} },
  ])('leaves a host route alone: $name, without a token, is echoed', async ({ body }) => {
    const response = await fetch(new URL('host/echo', host.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: body });
  });
});
