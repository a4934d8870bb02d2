import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type {
  InjectedFaultMode,
  JsonRpcErrorObject,
} from '../../src/demo-kernel/faults/kernel-fault-injector';
import type { KernelRequestLogEntry } from '../../src/demo-kernel/kernel-request-log-entry';
import type { EnsureRestoredMode } from '../../src/demo-kernel/kernel-session-restore';
import {
  ENSURE_RESTORED_MODE_PATH,
  FAULTS_PATH,
  HOLDS_PATH,
  KERNEL_UPSTREAM_READY,
  PIPELINE_REACHED_PATH,
  REQUEST_JOURNAL_PATH,
} from './kernel-upstream/upstream-protocol';
import { trackedClose } from './open-resources';

export interface KernelUpstreamOptions {
  /** Sets IACCODE_A2A_HTTP_TOKEN for the child: every route then needs the bearer token. */
  readonly token?: string;
  /** `--ping-ms`: silence before a `: ping` comment (the kernel's default is 15000). */
  readonly pingMs?: number;
  /** `--max-tasks`: the kernel keeps only this many tasks, the most recent (a long fuzz). */
  readonly maxTasks?: number;
  /** `--no-journal` when false: `requests()` then answers nothing (a long fuzz). */
  readonly journal?: boolean;
}

/** A fault for the next `times` (default 1) calls of a JSON-RPC method; the call never reaches the SDK. */
export interface KernelFaultSpec {
  readonly method: string;
  readonly mode: InjectedFaultMode;
  readonly times?: number;
  /** The JSON-RPC error of `rpc-error`; default `{code: -32603, message: 'Internal error'}`. */
  readonly error?: JsonRpcErrorObject;
  /** Holds the faulty answer back this long first (0–10,000 ms). */
  readonly delayMs?: number;
}

export interface KernelUpstream {
  /** Base URL ending with '/'. */
  readonly url: string;
  /** Every request the upstream saw (method, params, headers), oldest first (test routes excluded). */
  requests(): Promise<KernelRequestLogEntry[]>;
  /** Arms a fault (`POST /__test/faults`). */
  injectFault(fault: KernelFaultSpec): Promise<void>;
  /** Disarms every fault not yet used. */
  clearFaults(): Promise<void>;
  /** The scripts' `hold` steps wait from now on (a fault waits until the test saw what came before it). */
  armHolds(): Promise<void>;
  /** Lets every waiting `hold` go on, and disarms. */
  releaseHolds(): Promise<void>;
  /** Resolves once the task's Pipeline has published `sequence` (what the kernel did while no gateway read). */
  pipelineReached(taskId: string, sequence: number): Promise<void>;
  /** How `/iac-code/session/ensure-restored` answers from now on (default `current`). */
  setEnsureRestoredMode(mode: EnsureRestoredMode): Promise<void>;
  /** Sends a signal (default SIGKILL) without waiting: a crashed upstream. */
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
  close(): Promise<void>;
}

const REPO_ROOT = resolve(__dirname, '../..');
// Node 24 by absolute path: the system `node` may be older (a2a-js's CommonJS build needs require(esm)).
const NODE_24 = resolve(REPO_ROOT, 'node_modules/.bin/node');
const ENTRY = resolve(__dirname, 'kernel-upstream/main.ts');
const READY_TIMEOUT_MS = 20_000;

/** Spawns the scripted kernel (`kernel-upstream/main.ts`) as its own process and waits until it listens. */
export async function startKernelUpstream(options: KernelUpstreamOptions = {}): Promise<KernelUpstream> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.IACCODE_A2A_HTTP_TOKEN;
  if (options.token) env.IACCODE_A2A_HTTP_TOKEN = options.token;
  const args = ['--import', 'tsx', ENTRY];
  if (options.pingMs !== undefined) args.push('--ping-ms', String(options.pingMs));
  if (options.maxTasks !== undefined) args.push('--max-tasks', String(options.maxTasks));
  if (options.journal === false) args.push('--no-journal');
  const child = spawn(NODE_24, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // Registered before the wait: a caller whose setup fails elsewhere still gets this child stopped.
  const close = trackedClose(`kernel upstream pid ${child.pid}`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const forceKill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(forceKill);
  });

  const url = await readyUrlOf(child).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await close();
    throw error;
  });
  const authorization: Record<string, string> = options.token
    ? { Authorization: `Bearer ${options.token}` }
    : {};
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(new URL(path.slice(1), url), {
      method,
      headers: { ...authorization, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${path} answered HTTP ${response.status}: ${await response.text()}`);
    return response.json();
  };
  return {
    url,
    requests: async () => (await control('GET', REQUEST_JOURNAL_PATH)) as KernelRequestLogEntry[],
    injectFault: async (fault) => void (await control('POST', FAULTS_PATH, fault)),
    clearFaults: async () => void (await control('DELETE', FAULTS_PATH)),
    armHolds: async () => void (await control('POST', HOLDS_PATH)),
    releaseHolds: async () => void (await control('DELETE', HOLDS_PATH)),
    pipelineReached: async (taskId, sequence) => {
      const query = new URLSearchParams({ taskId, sequence: String(sequence) });
      await control('GET', `${PIPELINE_REACHED_PATH}?${query}`);
    },
    setEnsureRestoredMode: async (mode) => void (await control('POST', ENSURE_RESTORED_MODE_PATH, { mode })),
    kill: (signal = 'SIGKILL') => {
      child.kill(signal);
    },
    close,
  };
}

/** Resolves with the URL of the READY line; rejects with the child's stderr if it exits or is too slow. */
function readyUrlOf(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    const fail = (why: string): void => {
      cleanup();
      reject(new Error(`kernel upstream ${why}\n${stderr}`));
    };
    const onStdout = (chunk: Buffer): void => {
      stdout += chunk.toString('utf8');
      const line = stdout.split('\n').find((text) => text.startsWith(`${KERNEL_UPSTREAM_READY} `));
      if (line === undefined) return;
      cleanup();
      resolvePromise(line.slice(KERNEL_UPSTREAM_READY.length + 1).trim());
    };
    const onStderr = (chunk: Buffer): void => {
      stderr += chunk.toString('utf8');
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      fail(`exited before it was ready (code ${code}, signal ${signal})`);
    const timer = setTimeout(() => fail(`was not ready within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onStdout);
      child.off('exit', onExit);
      // Keep draining both pipes so a chatty child never blocks on a full pipe.
      child.stdout?.resume();
    };
    child.stdout?.on('data', onStdout);
    child.stderr?.on('data', onStderr);
    child.once('exit', onExit);
  });
}
