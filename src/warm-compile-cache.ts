import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreeLoopbackPort } from './a2a/managed/free-loopback-port';

/**
 * The image's compile-cache warm-up (Dockerfile, gateway stage; docs/benchmarks.md: cold start): a start as
 * the image makes one — main.js with everything it loads, Nest's HTTP and WebSocket stack included, up to a
 * listening server that answered `/ping` as the image's health check asks it — then stopped as a container is
 * (SIGTERM: the app closes, exit 0), when Node writes the cache. The app's module alone would leave out main.js
 * and the HTTP stack Nest loads while it builds and starts the server.
 * For the build only: a free loopback port, a kernel URL that nothing calls at start, a scratch state dir.
 */
const PING_DEADLINE_MS = 60_000;
const PING_INTERVAL_MS = 50;

async function answersPing(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

async function warm(): Promise<void> {
  const port = await findFreeLoopbackPort();
  const stateDir = mkdtempSync(join(tmpdir(), 'agui-warm-'));
  process.once('exit', () => rmSync(stateDir, { recursive: true, force: true }));
  // The environment of the start it makes, as a container's would be; that start reads it through src/config.
  // eslint-disable-next-line no-restricted-properties
  Object.assign(process.env, {
    IAC_CODE_AGUI_HOST: '127.0.0.1',
    IAC_CODE_AGUI_PORT: String(port),
    IAC_CODE_AGUI_STATE_DIR: stateDir,
    IAC_CODE_AGUI_A2A_URL: 'http://127.0.0.1:9/',
    IAC_CODE_AGUI_LOG_LEVEL: 'warn',
  });
  await import('./main');
  const deadline = Date.now() + PING_DEADLINE_MS;
  while (!(await answersPing(`http://127.0.0.1:${port}/ping`))) {
    if (Date.now() > deadline) throw new Error(`the warm-up start did not answer /ping on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, PING_INTERVAL_MS));
  }
  // main.ts's own shutdown (close-on-signals): app.close(), then exit 0.
  process.kill(process.pid, 'SIGTERM');
}

warm().catch((error: unknown) => {
  // A build step's own log (the image build fails with it), not a message to a client.
  console.error('compile-cache warm-up failed:', error);
  process.exit(1);
});
