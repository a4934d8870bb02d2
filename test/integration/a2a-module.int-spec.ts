import { Global, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { A2A_GATEWAY, type A2aGateway } from '../../src/a2a/a2a-gateway';
import { A2aHealthIndicator } from '../../src/a2a/a2a.health';
import { A2aModule } from '../../src/a2a/a2a.module';
import { NO_UPSTREAM_MESSAGE } from '../../src/a2a/decide-upstream';
import { startKernelServer } from '../../src/demo-kernel/kernel-server';
import { A2A_UPSTREAM, type UpstreamDescriptor } from '../../src/a2a/upstream';
import { APP_CONFIG } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';

const FAKE_DIRECTORY = path.resolve(__dirname, '../support/fake-iac-code');
const NODE_DIRECTORY = path.dirname(process.execPath);

function configModule(env: Record<string, string>) {
  const config = loadConfig(env, {
    cwd: '/tmp',
    homeDir: '/tmp',
    tmpDir: '/tmp',
    pathDelimiter: ':',
    isTty: false,
  });
  @Global()
  @Module({ providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] })
  class TestConfigModule {}
  return TestConfigModule;
}

async function compile(env: Record<string, string>): Promise<TestingModule> {
  return Test.createTestingModule({ imports: [configModule(env), A2aModule] }).compile();
}

async function isReachable(url: string): Promise<boolean> {
  return fetch(`${url}health`).then(
    () => true,
    () => false,
  );
}

describe('A2aModule upstream selection', () => {
  let moduleRef: TestingModule | undefined;
  afterEach(async () => {
    await moduleRef?.close();
    moduleRef = undefined;
  });

  it('demo: starts the embedded kernel with a token, reports it up, and stops it on shutdown', async () => {
    moduleRef = await compile({ IAC_CODE_AGUI_UPSTREAM: 'demo', PATH: '' });
    const upstream = moduleRef.get<UpstreamDescriptor>(A2A_UPSTREAM);

    expect(upstream).toEqual({ kind: 'demo', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/) });
    expect((await fetch(`${upstream.url}health`)).status).toBe(401);
    await expect(moduleRef.get(A2aHealthIndicator).isHealthy('a2a')).resolves.toEqual({
      a2a: expect.objectContaining({ status: 'up', upstream: 'demo' }),
    });

    await moduleRef.close();
    moduleRef = undefined;

    expect(await isReachable(upstream.url)).toBe(false);
  });

  describe('url', () => {
    let kernel: { url: string; close(): Promise<void> };
    beforeAll(async () => {
      kernel = await startKernelServer({ token: 'kernel-token' });
    });
    afterAll(() => kernel.close());

    it('uses the configured URL and token and leaves the kernel running on shutdown', async () => {
      moduleRef = await compile({
        IAC_CODE_AGUI_A2A_URL: kernel.url.replace(/\/$/, ''),
        IAC_CODE_AGUI_A2A_TOKEN: 'kernel-token',
        PATH: FAKE_DIRECTORY,
      });

      expect(moduleRef.get(A2A_UPSTREAM)).toEqual({ kind: 'url', url: kernel.url });
      const gateway = moduleRef.get<A2aGateway>(A2A_GATEWAY);
      await expect(gateway.checkReady()).resolves.toBeUndefined();
      await moduleRef.close();
      moduleRef = undefined;
      expect(await isReachable(kernel.url)).toBe(true);
      // The gateway's connection pool was destroyed by its own onApplicationShutdown.
      await expect(gateway.checkReady()).rejects.toThrow();
    });

    it('reports the upstream down when the token is wrong', async () => {
      moduleRef = await compile({ IAC_CODE_AGUI_A2A_URL: kernel.url, IAC_CODE_AGUI_A2A_TOKEN: 'wrong' });

      await expect(moduleRef.get(A2aHealthIndicator).isHealthy('a2a')).resolves.toEqual({
        a2a: expect.objectContaining({ status: 'down', upstream: 'url' }),
      });
    });
  });

  it('auto without a URL: runs the managed child found on PATH and stops it on shutdown', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'a2a-module-'));
    const record = path.join(directory, 'record.json');
    try {
      moduleRef = await compile({
        PATH: [FAKE_DIRECTORY, NODE_DIRECTORY, '/usr/bin', '/bin'].join(':'),
        FAKE_IAC_CODE_RECORD: record,
      });
      const upstream = moduleRef.get<UpstreamDescriptor>(A2A_UPSTREAM);
      const { env } = JSON.parse(readFileSync(record, 'utf8')) as { env: Record<string, string> };

      expect(upstream).toEqual({
        kind: 'managed',
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      });
      const health = await fetch(`${upstream.url}health`, {
        headers: { authorization: `Bearer ${env.IACCODE_A2A_HTTP_TOKEN}` },
      });
      expect(health.status).toBe(200);

      await moduleRef.close();
      moduleRef = undefined;

      expect(readFileSync(`${record}.signals`, 'utf8')).toBe('SIGTERM\n');
      expect(await isReachable(upstream.url)).toBe(false);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('auto: a managed child not healthy within IAC_CODE_AGUI_MANAGED_START_SECONDS stops the start, and is killed', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'a2a-module-'));
    const record = path.join(directory, 'record.json');
    try {
      const start = compile({
        PATH: [FAKE_DIRECTORY, NODE_DIRECTORY, '/usr/bin', '/bin'].join(':'),
        FAKE_IAC_CODE_RECORD: record,
        FAKE_IAC_CODE_MODE: 'unhealthy',
        IAC_CODE_AGUI_MANAGED_START_SECONDS: '0.6',
      });

      await expect(start).rejects.toThrow('iac-code a2a did not become healthy within 600 ms.');
      const { pid } = JSON.parse(readFileSync(record, 'utf8')) as { pid: number };
      expect(readFileSync(`${record}.signals`, 'utf8')).toBe('SIGTERM\n');
      expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('auto with nothing available refuses to start, naming the three options', async () => {
    await expect(compile({ PATH: NODE_DIRECTORY })).rejects.toThrow(NO_UPSTREAM_MESSAGE);
  });
});
