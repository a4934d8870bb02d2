import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT, freePort, untilAnswering, type GatewayProcess } from './bench-processes';

/** The hash-locked set of the published Python adapter (iac-code[agui] 0.16.0, a2a-sdk held below 1.2.1). */
const REQUIREMENTS = join(REPO_ROOT, 'bench/original/requirements.txt');
/** Under node_modules, so it is git-ignored and goes with a fresh `npm ci`. */
const VENV = join(REPO_ROOT, 'node_modules/.cache/bench-original-venv');
const STAMP = join(VENV, 'requirements.sha256');
const READY_TIMEOUT_MS = 60_000;

function hasPython(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The bench's own setup: a virtual environment with the Python original installed from PyPI with
 * `--require-hashes`, rebuilt only when bench/original/requirements.txt changes. Returns the `iac-code`
 * executable, or undefined when there is no python3 (the bench then skips the original and says so).
 */
export function ensureOriginalAdapter(log: (line: string) => void): string | undefined {
  if (!hasPython()) return undefined;
  const executable = join(VENV, 'bin/iac-code');
  const wanted = createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex');
  if (existsSync(executable) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted)
    return executable;
  log(`installing the Python original (iac-code[agui] 0.16.0) into ${VENV}`);
  execFileSync('python3', ['-m', 'venv', '--clear', VENV], { stdio: 'inherit' });
  execFileSync(
    join(VENV, 'bin/pip'),
    [
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--require-hashes',
      '--no-deps',
      '-r',
      REQUIREMENTS,
    ],
    { stdio: 'inherit' },
  );
  writeFileSync(STAMP, wanted);
  return executable;
}

export interface OriginalOptions {
  readonly executable: string;
  readonly upstreamUrl: string;
  /** Its durable state and its HOME (its logs), under the bench's temp dir. */
  readonly workDir: string;
}

/**
 * `iac-code agui` against the bench upstream, bound to loopback, no auth token (as our gateway runs in the
 * bench), telemetry off; ready once `GET /health` answers 200. `coldStartMs` is spawn → that answer.
 */
export async function startOriginal(options: OriginalOptions): Promise<GatewayProcess> {
  const port = await freePort();
  const home = join(options.workDir, 'home');
  const stateDir = join(options.workDir, 'state');
  await mkdir(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    IAC_CODE_CONFIG_DIR: join(home, '.iac-code'),
    DISABLE_TELEMETRY: '1',
    IAC_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const started = performance.now();
  const child = spawn(
    options.executable,
    [
      'agui',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--a2a-url',
      options.upstreamUrl,
      '--state-dir',
      stateDir,
    ],
    { cwd: options.workDir, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return untilAnswering(child, `http://127.0.0.1:${port}/`, 'health', started, READY_TIMEOUT_MS);
}
