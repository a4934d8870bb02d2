import * as os from 'node:os';
import { runInput } from '../support/run-input';
import { parseSse } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';
import { rawExchange } from '../support/raw-exchange';

const TOKEN = 'edges-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

function expectEnvelope(body: unknown, code: string): void {
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
}

/** Every refusal of the standalone service in the face's form, and the HTTP edges a platform team checks. */
describe('HTTP edges of the standalone service', () => {
  const gateway = useGateway({
    env: {
      IAC_CODE_AGUI_UPSTREAM: 'demo',
      IAC_CODE_AGUI_PLAYGROUND: 'false',
      IAC_CODE_AGUI_AUTH_TOKEN: TOKEN,
      IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
    },
  });

  it.each([
    { name: 'an unknown route', method: 'GET', route: 'nope', status: 404, code: 'NOT_FOUND', allow: null },
    {
      name: 'a disabled playground',
      method: 'GET',
      route: 'playground',
      status: 404,
      code: 'NOT_FOUND',
      allow: null,
    },
    { name: 'GET /', method: 'GET', route: '', status: 405, code: 'METHOD_NOT_ALLOWED', allow: 'POST' },
    {
      name: 'POST /health',
      method: 'POST',
      route: 'health',
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      allow: 'GET, HEAD',
    },
    {
      name: 'GET on the cancel route',
      method: 'GET',
      route: 'extensions/iac-code/v1/executions/exec-1/cancel',
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      allow: 'POST',
    },
    {
      name: 'an undecodable execution id on the cancel route',
      method: 'POST',
      route: 'extensions/iac-code/v1/executions/%ZZ/cancel',
      status: 400,
      code: 'INVALID_INPUT',
      allow: null,
    },
  ])(
    'answers $name with $status $code in the JSON envelope',
    async ({ method, route, status, code, allow }) => {
      const response = await fetch(`${gateway.url}${route}`, { method, headers: AUTH });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('allow')).toBe(allow);
      expectEnvelope(await response.json(), code);
    },
  );

  it('answers a wrong method on /invocations with one RUN_ERROR frame and Allow', async () => {
    const response = await fetch(`${gateway.url}invocations`, { headers: AUTH });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(parseSse(await response.text()).events).toEqual([
      {
        type: 'RUN_ERROR',
        code: 'METHOD_NOT_ALLOWED',
        message: expect.any(String),
        timestamp: expect.any(Number),
      },
    ]);
  });

  it.each([
    { route: '', form: 'json' },
    { route: 'invocations', form: 'sse' },
  ])(
    'answers a header section over the limit on /$route with 431 in its face form',
    async ({ route, form }) => {
      const answer = await rawExchange(
        gateway.url,
        `POST /${route} HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 431 /);
      expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
      if (form === 'json') expectEnvelope(JSON.parse(body), 'HEADERS_TOO_LARGE');
      else expect(parseSse(body).events).toMatchObject([{ type: 'RUN_ERROR', code: 'HEADERS_TOO_LARGE' }]);
    },
  );

  it('answers a request line Node cannot parse with 400 in the JSON envelope', async () => {
    const answer = await rawExchange(gateway.url, 'GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expectEnvelope(JSON.parse(body), 'INVALID_INPUT');
  });

  it('sends no X-Powered-By and no ETag, on answers and refusals', async () => {
    for (const response of [
      await fetch(`${gateway.url}health`),
      await fetch(`${gateway.url}nope`),
      await fetch(gateway.url, { method: 'POST', body: '{}' }),
    ]) {
      expect(response.headers.get('x-powered-by')).toBeNull();
      expect(response.headers.get('etag')).toBeNull();
    }
  });

  it('closes the connection after an early 413: the unread body is never read as a next request', async () => {
    const smuggled = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';
    const answer = await rawExchange(
      gateway.url,
      `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${13 * 1024 * 1024}\r\n\r\n${smuggled}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('keeps query values out of every log line of the request', async () => {
    const response = await fetch(`${gateway.url}?access_token=Q-S3CRET-VALUE`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(runInput()),
    });
    expect(response.status).toBe(401);
    await response.text();
    const lines = gateway.logs.filter((line) => line.includes('access_token'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain('Q-S3CRET-VALUE');
  });
});
