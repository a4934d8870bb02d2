import { Body, Controller, Module, Post } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AguiGatewayModule } from '../../src/index';
import { ScriptedA2aGateway } from '../support/fakes/scripted-a2a-gateway';
import { runInput } from '../support/run-input';
import { postRun } from '../support/sse-client';
import { startModule, type RunningGateway } from '../support/start-gateway';
import { rawExchange } from '../support/raw-exchange';

const TOKEN = 'host-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

@Controller('host')
class HostEchoController {
  @Post('echo')
  echo(@Body() body: unknown): unknown {
    return { parsedByTheHost: body };
  }
}

/**
 * docs/embedding.md#body-parsers: a host that keeps Nest's body parser on (its default) still gets the
 * gateway's own order of checks on the gateway's routes, with or without a route prefix, while its own
 * routes are parsed as before.
 */
describe.each([
  { name: 'no route prefix', routePrefix: undefined, globalPrefix: '', base: '' },
  { name: 'routePrefix /agents/iac', routePrefix: '/agents/iac', globalPrefix: '', base: 'agents/iac/' },
  {
    name: "the host's global prefix api, routePrefix /agents/iac",
    routePrefix: '/agents/iac',
    globalPrefix: 'api',
    base: 'api/agents/iac/',
  },
])("a host with Nest's default body parser on ($name)", ({ routePrefix, globalPrefix, base }) => {
  let host: RunningGateway;
  let routes: string;

  beforeAll(async () => {
    @Module({
      imports: [
        AguiGatewayModule.forRoot({
          environment: { IAC_CODE_AGUI_AUTH_TOKEN: TOKEN },
          config: {
            stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-host-')),
            allowedCwdRoots: [os.tmpdir()],
          },
          a2aGateway: { useFactory: () => new ScriptedA2aGateway(['streamed']) },
          ...(routePrefix ? { routePrefix } : {}),
        }),
      ],
      controllers: [HostEchoController],
    })
    class HostModule {}
    host = await startModule([HostModule], {
      bodyParser: true,
      prepare: (app) => (globalPrefix ? app.setGlobalPrefix(globalPrefix) : undefined),
    });
    routes = `${host.url}${base}`;
  });
  afterAll(() => host.close());

  it('streams a 300 KB run on / and /invocations (over the host parser’s 100 KB default)', async () => {
    for (const [route, threadId] of [
      ['', 'big-root'],
      ['invocations', 'big-agentcore'],
    ]) {
      const response = await postRun(
        `${routes}${route}`,
        runInput({ threadId, text: 'x'.repeat(300 * 1024) }),
        {
          headers: AUTH,
        },
      );
      expect(response.status).toBe(200);
      expect(response.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    }
  });

  it('answers `{bad` with the INVALID_JSON envelope, and a bad cancel body with its own', async () => {
    const post = (route: string) =>
      fetch(`${routes}${route}`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: '{bad',
      });
    const run = await post('');
    expect(run.status).toBe(400);
    expect(await run.json()).toEqual({
      error: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' },
    });
    const cancel = await post('extensions/iac-code/v1/executions/e-1/cancel');
    expect(cancel.status).toBe(400);
    expect(await cancel.json()).toMatchObject({ error: { code: 'INVALID_JSON' } });
  });

  it('refuses an unauthenticated 300 KB body with 401 and Connection: close before reading it', async () => {
    // Only the head is sent: an answer proves the body was not waited for.
    const answer = await rawExchange(
      routes,
      `POST /${base} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${300 * 1024}\r\n\r\n`,
    );
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });

  it("parses the host's own routes with the host's parser as before", async () => {
    const response = await fetch(`${host.url}${globalPrefix ? `${globalPrefix}/` : ''}host/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'host' }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ parsedByTheHost: { hello: 'host' } });
  });
});
