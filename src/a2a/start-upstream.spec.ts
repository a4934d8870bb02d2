import { ConfigError, loadConfig } from '../config/load-config';
import { DEMO_NOT_BUILT_MESSAGE, provideDemoKernel } from './demo-upstream';
import { startUpstream } from './start-upstream';

const HOST = { cwd: '/srv/app', homeDir: '/home/agui', tmpDir: '/tmp', pathDelimiter: ':', isTty: false };
const demoConfig = () => loadConfig({ IAC_CODE_AGUI_UPSTREAM: 'demo' }, HOST);

describe('startUpstream with IAC_CODE_AGUI_UPSTREAM=demo (docs/architecture.md#decisions)', () => {
  it('refuses to start a production build, which registered no demo kernel, naming what to use instead', async () => {
    const started = startUpstream(demoConfig());
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(DEMO_NOT_BUILT_MESSAGE);
    expect(DEMO_NOT_BUILT_MESSAGE).toMatch(
      /IAC_CODE_AGUI_A2A_URL.*iac-code.*npm start.*--target demo.*startScriptedKernel/,
    );
  });

  it('starts the registered demo kernel on loopback with a fresh token, and stops it with the upstream', async () => {
    const calls: { host: string; port: number; token: string }[] = [];
    let closed = 0;
    provideDemoKernel(async (options) => {
      calls.push(options);
      return { url: 'http://127.0.0.1:4321/', close: async () => void (closed += 1) };
    });
    const running = await startUpstream(demoConfig());
    expect(running.descriptor).toEqual({ kind: 'demo', url: 'http://127.0.0.1:4321/' });
    expect(calls).toEqual([{ host: '127.0.0.1', port: 0, token: running.token }]);
    expect(running.token).toMatch(/^[\w-]{43}$/);
    await running.stop();
    expect(closed).toBe(1);
  });
});
