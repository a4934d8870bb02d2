import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PLAYGROUND_PAGE_DIR } from '../../src/playground/playground-page-dir';
import { startGateway, type RunningGateway } from '../support/start-gateway';

/**
 * `GET /playground` and its files over HTTP : open without the bearer token, only when
 * `IAC_CODE_AGUI_PLAYGROUND` is on, and only the files of the built page. A small page of the test's own
 * stands in for the Vite build.
 */
const TOKEN = 'route-token';
let pageDir: string;

beforeAll(() => {
  pageDir = mkdtempSync(path.join(os.tmpdir(), 'agui-playground-route-'));
  mkdirSync(path.join(pageDir, 'assets'));
  writeFileSync(path.join(pageDir, 'index.html'), '<!doctype html><title>page</title>');
  writeFileSync(path.join(pageDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  writeFileSync(path.join(pageDir, 'assets', '.hidden'), 'secret');
});
afterAll(() => rmSync(pageDir, { recursive: true, force: true }));

async function withGateway(
  env: Record<string, string | undefined>,
  use: (gateway: RunningGateway) => Promise<void>,
) {
  const gateway = await startGateway({ IAC_CODE_AGUI_AUTH_TOKEN: TOKEN, ...env }, (builder) =>
    builder.overrideProvider(PLAYGROUND_PAGE_DIR).useValue(pageDir),
  );
  try {
    await use(gateway);
  } finally {
    await gateway.close();
  }
}

describe('playground routes when enabled', () => {
  const env = { IAC_CODE_AGUI_UPSTREAM: 'demo', IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir() };

  it.each([
    { name: 'the page', route: 'playground', type: 'text/html', body: '<!doctype html><title>page</title>' },
    {
      name: 'the page with a slash',
      route: 'playground/',
      type: 'text/html',
      body: '<!doctype html><title>page</title>',
    },
    {
      name: 'an asset',
      route: 'playground/assets/index-abc123.js',
      type: 'javascript',
      body: 'console.log(1);',
    },
  ])('serves $name without a token', ({ route, type, body }) =>
    withGateway(env, async (gateway) => {
      const response = await fetch(`${gateway.url}${route}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(type);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toBe(body);
    }),
  );

  it('tells the page a workspace the gateway accepts, and that a token is needed', () =>
    withGateway(env, async (gateway) => {
      const response = await fetch(`${gateway.url}playground/config.json`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        defaultCwd: path.join(os.tmpdir(), 'agui-playground'),
        authRequired: true,
      });
    }));

  it.each([
    { name: 'a missing asset', route: 'playground/assets/missing.js' },
    { name: 'a dot file', route: 'playground/assets/.hidden' },
    { name: 'a path that climbs out', route: 'playground/assets/..%2F..%2Fpackage.json' },
    { name: 'a file outside assets/', route: 'playground/index.html%2F..%2Fassets' },
  ])('answers 404 for $name', ({ route }) =>
    withGateway(env, async (gateway) => {
      const response = await fetch(`${gateway.url}${route}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('secret');
    }),
  );

  it('still guards the API the page calls', () =>
    withGateway(env, async (gateway) => {
      const response = await fetch(gateway.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(401);
    }));
});

describe('playground routes when disabled', () => {
  it.each([
    {
      name: 'off by default without the demo upstream',
      env: { IAC_CODE_AGUI_A2A_URL: 'http://127.0.0.1:9/' },
    },
    {
      name: 'switched off on the demo upstream',
      env: { IAC_CODE_AGUI_UPSTREAM: 'demo', IAC_CODE_AGUI_PLAYGROUND: 'false' },
    },
  ])('answers 404 everywhere when $name', ({ env }) =>
    withGateway(env, async (gateway) => {
      for (const route of ['playground', 'playground/config.json', 'playground/assets/index-abc123.js']) {
        const response = await fetch(`${gateway.url}${route}`);
        expect({ route, status: response.status }).toEqual({ route, status: 404 });
      }
    }),
  );
});
