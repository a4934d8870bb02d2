import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findFreeLoopbackPort } from '../../src/a2a/managed/free-loopback-port';
import { runCommand } from '../deploy/support/run-command';
import { trackedClose } from './open-resources';

const REPO_ROOT = path.resolve(__dirname, '../..');
export const NODE_24 = fs.realpathSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'node'));

/**
 * Compiles the current sources (`main.ts` and everything it imports) into a fresh directory where dist/ would
 * be (node_modules and package.json resolve alike) — never a stale dist/. Returns that directory; the caller
 * removes it (`fs.rmSync(dir, { recursive: true })`) after its tests.
 */
export async function buildServiceForTests(): Promise<string> {
  const buildDir = fs.mkdtempSync(path.join(REPO_ROOT, '.test-build-'));
  const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const build = await runCommand(
    NODE_24,
    [
      tsc,
      '-p',
      'tsconfig.build.json',
      '--outDir',
      buildDir,
      '--declaration',
      'false',
      '--sourceMap',
      'false',
    ],
    { cwd: REPO_ROOT, env: process.env, timeoutMs: 150_000 },
  );
  if (build.code !== 0) throw new Error(`tsc failed:\n${build.stdout}\n${build.stderr}`);
  return buildDir;
}

/** One replica: the service as its own process (`node main.js`), so a test can freeze or kill it alone. */
export interface ServiceProcess {
  /** Base URL ending with '/'. */
  readonly url: string;
  readonly pid: number;
  /** Everything it wrote so far (JSON log lines). */
  output(): string;
  /** SIGSTOP / SIGCONT (a GC pause, a VM stall) or SIGKILL (a crash), without waiting. */
  signal(signal: 'SIGSTOP' | 'SIGCONT' | 'SIGKILL'): void;
  /** Resolves once the process has exited. */
  readonly exited: Promise<void>;
  /** SIGKILL (after SIGCONT, should it be frozen) and wait for the exit. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts `<buildDir>/main.js` on a free loopback port with `env` (and nothing else of this process's
 * environment but PATH and HOME) and resolves once it logs `listening`; rejects with its output if it exits
 * first. `user`: another uid and gid (the caller must be root).
 */
export async function startServiceProcess(
  buildDir: string,
  env: Record<string, string>,
  /** Runs it as this user and group (setgid, setuid; no supplementary groups), as a container's USER does. */
  user: { readonly uid: number; readonly gid: number } | undefined = undefined,
): Promise<ServiceProcess> {
  const port = await findFreeLoopbackPort();
  const child: ChildProcess = spawn(NODE_24, [path.join(buildDir, 'main.js')], {
    ...user,
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      IAC_CODE_AGUI_LOG_FORMAT: 'json',
      IAC_CODE_AGUI_LOG_LEVEL: 'info',
      ...env,
      IAC_CODE_AGUI_PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = trackedClose(`service pid ${child.pid}`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  });
  await new Promise<void>((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"listening"')) resolve();
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid ?? 0,
    output: () => output,
    signal: (name) => void child.kill(name),
    exited,
    close,
  };
}
