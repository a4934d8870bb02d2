import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { interruptsOf, paramsOf, postResume, readThread } from '../support/interrupt-helpers';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import { startGateway, type RunningGateway } from '../support/start-gateway';
import { startKernelUpstream, type KernelUpstream } from '../support/start-kernel-upstream';
import { WsRunClient } from '../support/ws-client';
import { REPO_ROOT } from './support/helm';
import { runCommand } from './support/run-command';

const NODE_24 = fs.realpathSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'node'));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Graceful shutdown of the real process : SIGTERM to `node dist/main.js` with one active run and
 * one run parked at a durable interrupt.
 */
describe('SIGTERM drains the service and exits 0', () => {
  let upstream: KernelUpstream;
  let child: ChildProcess;
  let stateDir: string;
  let url: string;
  let output = '';
  let resumer: RunningGateway | undefined;

  beforeAll(async () => {
    upstream = await startKernelUpstream();
    if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'main.js'))) {
      const build = await runCommand('npm', ['run', 'build'], {
        cwd: REPO_ROOT,
        env: process.env,
        timeoutMs: 150_000,
      });
      if (build.code !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
    }
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agui-sigterm-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}/`;
    child = spawn(NODE_24, ['dist/main.js'], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: os.homedir(),
        IAC_CODE_AGUI_PORT: String(port),
        IAC_CODE_AGUI_A2A_URL: upstream.url,
        IAC_CODE_AGUI_STATE_DIR: stateDir,
        IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
        IAC_CODE_AGUI_DRAIN_SECONDS: '1.5',
        IAC_CODE_AGUI_LOG_LEVEL: 'warn',
        IAC_CODE_AGUI_LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      () =>
        fetch(`${url}ping`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200 || child.exitCode !== null,
      30_000,
    );
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
  }, 200_000);

  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await resumer?.close();
    await upstream?.close();
  });

  it('finishes or cancels the active run, keeps the parked interrupt, refuses new runs while draining', async () => {
    const parked = await postRun(url, runInput({ threadId: 'parked', runId: 'run-1', text: 'permission' }));
    expect(interruptsOf(parked.events)?.map((interrupt) => interrupt.id)).toEqual(['permission-1']);
    const parkedTask = readThread(stateDir, 'parked').execution.taskId as string;

    const active = postRun(url, runInput({ threadId: 'active', runId: 'run-1', text: 'slow' }));
    const activeTask = await eventually(
      async () => {
        try {
          return readThread(stateDir, 'active').execution.taskId as string | null;
        } catch {
          return null;
        }
      },
      (taskId) => typeof taskId === 'string',
    );
    const socket = await WsRunClient.open(url);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    // The service has seen the signal once readiness turns 503 (not after a fixed time, which a loaded
    // machine can outlast).
    const readiness = await eventually(
      () => fetch(`${url}health/ready`).then((response) => response.status),
      (status) => status === 503,
    );
    expect(readiness).toBe(503);

    const refused = await postRun(url, runInput({ threadId: 'late', runId: 'run-1' }));
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.text).error.code).toBe('SERVICE_DRAINING');

    // The slow run outlives the 1.5 s drain: its task is cancelled and it ends with RUN_ERROR CANCELLED.
    const activeRun = await active;
    expect(activeRun.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
    expect(await exited).toBe(0);
    // An open /ws client is told the service is going away, not cut off (1006).
    expect(await socket.closed).toEqual({ code: 1001, reason: '' });
    const cancelled = (await paramsOf(upstream, 'CancelTask')).map((params) => params.id);
    expect(cancelled).toContain(activeTask);
    expect(cancelled).not.toContain(parkedTask);

    // The parked interrupt is untouched on disk and the next instance resumes it, once.
    const state = readThread(stateDir, 'parked');
    expect(Object.keys(state.execution.pending)).toEqual(['permission-1']);
    expect(state.execution.taskId).toBe(parkedTask);
    resumer = await startGateway({
      IAC_CODE_AGUI_A2A_URL: upstream.url,
      IAC_CODE_AGUI_STATE_DIR: stateDir,
      IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
    });
    const resumed = await postResume(resumer.url, 'parked', 'run-2', [
      { interruptId: 'permission-1', status: 'resolved', payload: { decision: 'allow_once' } },
    ]);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  }, 60_000);
});
