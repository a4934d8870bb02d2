import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { sessionOf } from '../support/interrupt-helpers';
import { packLibrary } from '../support/pack-library';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import { startKernelUpstream, type KernelUpstream } from '../support/start-kernel-upstream';
import { WsRunClient } from '../support/ws-client';
import { rawExchange } from '../support/raw-exchange';

const execFileAsync = promisify(execFile);

/** One setup command; a failure names the command and carries its output. */
async function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<void> {
  try {
    await execFileAsync(command, args, { ...options, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}
const REPO = path.resolve(__dirname, '../..');
const EXAMPLE = path.join(REPO, 'examples/host-app');
/** Node 24 and its npm first on PATH, as a user of the package has them. */
const ENV = {
  ...process.env,
  PATH: `${path.join(REPO, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}`,
};
/** Packing, installing and compiling take minutes on a loaded machine; none of it is what is measured. */
const SETUP_TIMEOUT_MS = 15 * 60 * 1000;

/** The started host: its URL once it printed "listening on <url>". */
function startHost(app: string, env: NodeJS.ProcessEnv): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: app,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const listening = /listening on (http:\/\/\S+?);/.exec(output);
      if (listening) resolve(`${listening[1]}/`);
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`the host exited (${code}) before listening:\n${output}`)));
  });
  return { child, url };
}

/**
 * examples/host-app as a platform team uses it (docs/embedding.md): a fresh copy of the example at the same
 * place relative to the packed tarball as in the checkout (`npm run pack:lib` writes it at the root), installed
 * with a bare `npm install` (its package.json names the tarball, next to rxjs 7.8.2), compiled with
 * skipLibCheck off, run as its own process with Nest's body parser on, against a real A2A server.
 */
describe('examples/host-app installed from the packed tarball', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'agui-host-app-pack-'));
  const app = path.join(directory, 'examples/host-app');
  const auditLogPath = path.join(directory, 'audit.jsonl');
  let tarball: string;
  let upstream: KernelUpstream;
  let host: ChildProcess | undefined;
  let agentUrl: string;
  let hostUrl: string;
  const as = (user: string) => ({ headers: { 'x-user-id': user } });

  beforeAll(async () => {
    tarball = packLibrary(directory).tarball;
    mkdirSync(app, { recursive: true });
    for (const file of ['package.json', 'tsconfig.json', 'src'])
      cpSync(path.join(EXAMPLE, file), path.join(app, file), { recursive: true });
    // No --force, no --legacy-peer-deps: the host's rxjs 7.8.2 must meet the package's peer range.
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: app,
      env: ENV,
    });
    await run(path.join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: app, env: ENV });
    upstream = await startKernelUpstream();
    const started = startHost(app, {
      HOME: os.homedir(),
      PATH: ENV.PATH,
      PORT: '0',
      AUDIT_LOG_PATH: auditLogPath,
      IAC_CODE_AGUI_A2A_URL: upstream.url,
      IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
      IAC_CODE_AGUI_STATE_DIR: path.join(directory, 'state'),
      IAC_CODE_AGUI_LOG_LEVEL: 'warn',
    });
    host = started.child;
    hostUrl = await started.url;
    agentUrl = `${hostUrl}agents/iac/`;
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    if (host?.exitCode === null) {
      const exited = new Promise((resolve) => host?.once('exit', resolve));
      host.kill('SIGTERM');
      await exited;
    }
    await upstream?.close();
    // The installed copy holds a whole node_modules: do not leave it on a shared machine.
    rmSync(directory, { recursive: true, force: true });
  });

  const auditLines = () => {
    try {
      return readFileSync(auditLogPath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { threadId: string; runId: string; principal: string | null });
    } catch {
      return [];
    }
  };

  it('installs the packed tarball its package.json names (never a registry name)', () => {
    const { dependencies } = JSON.parse(readFileSync(path.join(EXAMPLE, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(dependencies['agui-a2a-gateway']).toBe(
      `file:${path.relative(app, tarball).split(path.sep).join('/')}`,
    );
    const lock = JSON.parse(readFileSync(path.join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string }>;
    };
    expect(lock.packages['node_modules/agui-a2a-gateway'].resolved).toBe(
      `file:${path.relative(app, tarball).split(path.sep).join('/')}`,
    );
  });

  it('installed next to rxjs 7.8.2 without flags and type-checks with skipLibCheck off', () => {
    const installed = (name: string) =>
      (
        JSON.parse(readFileSync(path.join(app, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    expect(installed('rxjs')).toBe('7.8.2');
    expect(installed('agui-a2a-gateway')).toBe('0.1.0');
    expect(JSON.parse(readFileSync(path.join(app, 'tsconfig.json'), 'utf8'))).toMatchObject({
      compilerOptions: { skipLibCheck: false },
    });
    expect(readdirSync(path.join(app, 'dist'))).toContain('main.js');
  });

  it('streams a 300 KB run through the host, whose body parser is on (its limit is 100 KB)', async () => {
    const response = await postRun(
      agentUrl,
      runInput({ threadId: 'big-run', text: 'x'.repeat(300 * 1024) }),
      as('bob'),
    );
    expect(response.status).toBe(200);
    expect(response.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
  });

  it('answers `{bad` with the INVALID_JSON envelope', async () => {
    const response = await fetch(agentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': 'bob' },
      body: '{bad',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' },
    });
  });

  it("refuses an unauthenticated 300 KB body with 401, Connection: close and the host's message, before reading it", async () => {
    const answer = await rawExchange(
      agentUrl,
      `POST /agents/iac HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${300 * 1024}\r\n\r\n`,
    );
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    expect(JSON.parse(body)).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'Sign in through the company portal first.' },
    });
  });

  it("keeps bob's thread bob's: alice can neither continue nor cancel it; the audit line names bob", async () => {
    const opened = await postRun(
      agentUrl,
      runInput({ threadId: 'bobs', runId: 'b-1', iacCode: { userId: 'bob' } }),
      as('bob'),
    );
    expect(opened.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const continued = await postRun(
      agentUrl,
      runInput({ threadId: 'bobs', runId: 'a-1', iacCode: { userId: 'bob' } }),
      as('alice'),
    );
    expect(continued.status).toBe(409);
    expect(JSON.parse(continued.text)).toMatchObject({ error: { code: 'THREAD_BINDING_CONFLICT' } });
    const socket = await WsRunClient.open(agentUrl, as('alice'));
    try {
      socket.send(runInput({ threadId: 'bobs', runId: 'a-2', iacCode: { userId: 'bob' } }));
      expect((await socket.nextRun()).at(-1)).toMatchObject({
        type: 'RUN_ERROR',
        code: 'THREAD_BINDING_CONFLICT',
      });
    } finally {
      socket.socket.terminate();
    }
    const { executionId } = sessionOf(opened.events);
    const cancel = await fetch(`${agentUrl}extensions/iac-code/v1/executions/${executionId}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': 'alice' },
      body: JSON.stringify({ threadId: 'bobs', rosInvocationId: 'invocation-1' }),
    });
    expect(cancel.status).toBe(404);
    const lines = await eventually(
      async () => auditLines().filter((line) => line.threadId === 'bobs'),
      (found) => found.length === 1,
    );
    expect(lines).toEqual([expect.objectContaining({ runId: 'b-1', principal: 'bob' })]);
  });

  it("leaves the host's own route to the host's body parser", async () => {
    const response = await fetch(`${hostUrl}host/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'host' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: { hello: 'host' } });
  });
});
