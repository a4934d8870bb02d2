import { Controller, Get, Module } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../src/config/load-config';
import { AguiGatewayModule } from '../../src/gateway/agui-gateway.module';
import { runInput } from '../support/run-input';
import { parseSse } from '../support/sse-client';
import { startModule } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';

const APP_ORIGIN = 'http://app.example.test:5173';
const TOKEN = 'cors-token';

/** A browser's preflight for a POST with the bearer token and a JSON body. */
function preflight(url: string, origin: string, method = 'POST'): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers':
        'authorization,content-type,x-amzn-bedrock-agentcore-runtime-session-id',
    },
  });
}

const lowerList = (value: string | null) => (value ?? '').toLowerCase().split(/\s*,\s*/);

describe('CORS (IAC_CODE_AGUI_CORS_ORIGINS)', () => {
  const gateways = useGateway({ env: { IAC_CODE_AGUI_UPSTREAM: 'demo' }, startBeforeAll: false });

  describe('with an allowed origin', () => {
    const gateway = useGateway({
      env: {
        IAC_CODE_AGUI_UPSTREAM: 'demo',
        IAC_CODE_AGUI_PLAYGROUND: 'false',
        IAC_CODE_AGUI_AUTH_TOKEN: TOKEN,
        IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
        IAC_CODE_AGUI_CORS_ORIGINS: `https://other.example.test, ${APP_ORIGIN}`,
      },
    });

    it.each([
      { route: '', method: 'POST' },
      { route: 'invocations', method: 'POST' },
      { route: 'extensions/iac-code/v1/executions/some-execution/cancel', method: 'POST' },
      { route: 'health', method: 'GET' },
      { route: 'ping', method: 'GET' },
      { route: 'metrics', method: 'GET' },
    ])('answers the preflight of $method /$route without a token', async ({ route, method }) => {
      const response = await preflight(new URL(route, gateway.url).href, APP_ORIGIN, method);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
      expect(lowerList(response.headers.get('access-control-allow-methods'))).toEqual(
        expect.arrayContaining([method.toLowerCase()]),
      );
      expect(lowerList(response.headers.get('access-control-allow-headers'))).toEqual(
        expect.arrayContaining([
          'authorization',
          'content-type',
          'x-amzn-bedrock-agentcore-runtime-session-id',
        ]),
      );
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('vary')).toMatch(/origin/i);
    });

    it('marks a run from that origin readable by it, and exposes the AgentCore ids and the challenge', async () => {
      const response = await fetch(new URL('invocations', gateway.url), {
        method: 'POST',
        headers: {
          origin: APP_ORIGIN,
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'x-amzn-bedrock-agentcore-runtime-session-id': 'cors-session-0123456789-0123456789-01',
        },
        body: JSON.stringify(runInput({ threadId: 'cors-run' })),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
      expect(lowerList(response.headers.get('access-control-expose-headers'))).toEqual(
        expect.arrayContaining([
          'www-authenticate',
          'x-amzn-bedrock-agentcore-runtime-session-id',
          'x-amzn-bedrock-agentcore-runtime-request-id',
        ]),
      );
      expect(parseSse(await response.text()).events.at(-1)?.type).toBe('RUN_FINISHED');
    });

    it('lets the app read a refusal too (401 before the body is read)', async () => {
      const response = await fetch(gateway.url, {
        method: 'POST',
        headers: { origin: APP_ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify(runInput()),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    });

    it('gives another origin no permission', async () => {
      const response = await preflight(gateway.url, 'https://evil.example.test');
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  it('allows any origin with "*"', async () => {
    const gateway = await gateways.start({ IAC_CODE_AGUI_CORS_ORIGINS: '*' });
    const response = await preflight(gateway.url, 'https://anywhere.example.test');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('sends no CORS header at all when unset, as the original', async () => {
    const gateway = await gateways.start();
    const answers = [await preflight(gateway.url, APP_ORIGIN), await fetch(new URL('health', gateway.url))];
    for (const response of answers) {
      expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it("leaves a host application's own routes untouched", async () => {
    @Controller('host')
    class HostController {
      @Get('hello')
      hello(): string {
        return 'hello';
      }
    }
    @Module({
      imports: [
        AguiGatewayModule.forRoot({
          environment: {
            IAC_CODE_AGUI_UPSTREAM: 'demo',
            IAC_CODE_AGUI_PLAYGROUND: 'false',
            IAC_CODE_AGUI_CORS_ORIGINS: APP_ORIGIN,
          },
          config: { stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-cors-host-')) },
        }),
      ],
      controllers: [HostController],
    })
    class HostModule {}
    const host = await startModule([HostModule], { bodyParser: true });
    try {
      const own = await preflight(host.url, APP_ORIGIN);
      expect(own.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
      const hostRoute = await fetch(new URL('host/hello', host.url), { headers: { origin: APP_ORIGIN } });
      expect(await hostRoute.text()).toBe('hello');
      expect(hostRoute.headers.get('access-control-allow-origin')).toBeNull();
      const hostPreflight = await preflight(new URL('host/hello', host.url).href, APP_ORIGIN, 'GET');
      expect(hostPreflight.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await host.close();
    }
  });

  it.each(['https://app.example.test/path', 'app.example.test', '*,https://app.example.test'])(
    'refuses to start with IAC_CODE_AGUI_CORS_ORIGINS=%s, naming the variable',
    (value) => {
      const facts = { cwd: '/', homeDir: '/home/x', tmpDir: '/tmp', pathDelimiter: ':', isTty: false };
      expect(() => loadConfig({ IAC_CODE_AGUI_CORS_ORIGINS: value }, facts)).toThrow(
        /^IAC_CODE_AGUI_CORS_ORIGINS: /,
      );
    },
  );
});
