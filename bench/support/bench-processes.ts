import { fork, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, symlink, copyFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ClientCommand, ClientReply } from '../client/client-protocol';
import { PROXY_READY, UPSTREAM_READY } from './ready-lines';

export const REPO_ROOT = resolve(__dirname, '../..');
// Node 24 by absolute path (the system `node` may be older); a real binary, so its pid is the process.
export const NODE_24 = join(REPO_ROOT, 'node_modules/.bin/node');
const TSX = ['--import', 'tsx'];
const READY_TIMEOUT_MS = 20_000;

export interface BenchProcess {
  readonly pid: number;
  readonly url: string;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess): () => Promise<void> {
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const forceKill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(forceKill);
  };
}

/** Keeps the last lines of a child's stderr, for the error message when it fails. */
function stderrTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-4000)));
  return () => tail;
}

async function spawnUntilReady(
  entry: string,
  args: string[],
  readyPrefix: string,
  env?: NodeJS.ProcessEnv,
): Promise<BenchProcess> {
  const child = spawn(NODE_24, [...TSX, entry, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env ? { env } : {}),
  });
  const tail = stderrTail(child);
  const url = await new Promise<string>((resolveUrl, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`${entry} not ready\n${tail()}`)), READY_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code})\n${tail()}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const line = stdout.split('\n').find((text) => text.startsWith(`${readyPrefix} `));
      if (!line) return;
      clearTimeout(timer);
      resolveUrl(line.slice(readyPrefix.length + 1).trim());
    });
  });
  return { pid: child.pid!, url, stop: stopper(child) };
}

export function startUpstream(): Promise<BenchProcess> {
  return spawnUntilReady(join(REPO_ROOT, 'bench/upstream/bench-upstream.ts'), [], UPSTREAM_READY);
}

/** `nodeOptions` replaces the NODE_OPTIONS the proxy inherits (e.g. the image's, for a memory figure). */
export function startProxy(upstreamUrl: string, nodeOptions?: string): Promise<BenchProcess> {
  return spawnUntilReady(
    join(REPO_ROOT, 'bench/baseline-proxy.ts'),
    [upstreamUrl],
    PROXY_READY,
    nodeOptions === undefined ? undefined : { ...process.env, NODE_OPTIONS: nodeOptions },
  );
}

/**
 * Copies the production build to a private directory (with node_modules linked), so a rebuild of
 * `dist/` by someone else during a run cannot change the gateway under measurement.
 */
export async function snapshotGatewayBuild(workDir: string): Promise<string> {
  const root = join(workDir, 'gateway-build');
  await mkdir(root, { recursive: true });
  await cp(join(REPO_ROOT, 'dist'), join(root, 'dist'), { recursive: true });
  await copyFile(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
  await symlink(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

export interface GatewayOptions {
  readonly buildDir: string;
  readonly upstreamUrl: string;
  readonly stateDir: string;
  readonly allowedCwd: string;
  readonly heartbeatSeconds?: number;
  /** Extra Node flags (e.g. `--cpu-prof`). */
  readonly nodeFlags?: readonly string[];
  /** More settings of the gateway (e.g. IAC_CODE_AGUI_REATTACH_SECONDS). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface GatewayProcess extends BenchProcess {
  /** Spawn → first `/ping` 200, in milliseconds. */
  readonly coldStartMs: number;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** The image's `NODE_OPTIONS` (Dockerfile; a deploy spec checks they agree): V8's young generation capped. */
export const IMAGE_NODE_OPTIONS = '--max-semi-space-size=4';

/** The image's jemalloc settings (Dockerfile; a deploy spec checks they agree), for a run with its allocator. */
export const IMAGE_MALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000';

/**
 * glibc's malloc settings of `npm start` (package.json; a deploy spec checks they agree), for a service started
 * without the image's jemalloc: two arenas, and a fixed mmap threshold, so that a freed large buffer goes back
 * to the system and does not raise the threshold (docs/operations.md#memory-outside-the-image).
 */
export const GLIBC_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/** Starts `dist/main.js` on Node 24 as the production image would, and waits for `/ping` to answer 200. */
export async function startGateway(options: GatewayOptions): Promise<GatewayProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    IAC_CODE_AGUI_A2A_URL: options.upstreamUrl,
    IAC_CODE_AGUI_PORT: String(port),
    IAC_CODE_AGUI_ALLOWED_CWDS: options.allowedCwd,
    IAC_CODE_AGUI_STATE_DIR: options.stateDir,
    IAC_CODE_AGUI_LOG_LEVEL: 'warn',
    NODE_OPTIONS: IMAGE_NODE_OPTIONS,
    ...(options.heartbeatSeconds
      ? { IAC_CODE_AGUI_HEARTBEAT_SECONDS: String(options.heartbeatSeconds) }
      : {}),
    ...options.env,
  };
  const started = performance.now();
  const child = spawn(NODE_24, [...(options.nodeFlags ?? []), join(options.buildDir, 'dist/main.js')], {
    cwd: options.buildDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return untilAnswering(child, `http://127.0.0.1:${port}/`, 'ping', started, READY_TIMEOUT_MS);
}

/** Polls `<url><path>` every 2 ms until it answers 200; `coldStartMs` is `started` → that answer. */
export async function untilAnswering(
  child: ChildProcess,
  url: string,
  path: string,
  started: number,
  timeoutMs: number,
): Promise<GatewayProcess> {
  const tail = stderrTail(child);
  child.stdout?.resume();
  const deadline = started + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url} exited (${child.exitCode})\n${tail()}`);
    if (performance.now() > deadline) throw new Error(`${url} not answering /${path}\n${tail()}`);
    const status = await fetch(`${url}${path}`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((done) => setTimeout(done, 2));
  }
  return { pid: child.pid!, url, coldStartMs: performance.now() - started, stop: stopper(child) };
}

export interface BenchClient {
  readonly pid: number;
  send<T>(command: ClientCommand): Promise<T>;
  stop(): Promise<void>;
}

/** Forks the client process (IPC for commands and results). */
export function startClient(): BenchClient {
  const child = fork(join(REPO_ROOT, 'bench/client/bench-client.ts'), [], {
    execPath: NODE_24,
    execArgv: TSX,
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let seq = 0;
  child.on('message', (reply: ClientReply) => {
    const waiter = pending.get(reply.seq);
    pending.delete(reply.seq);
    if (reply.error !== undefined) waiter?.reject(new Error(`client: ${reply.error}`));
    else waiter?.resolve(reply.result);
  });
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`client exited (${code})`));
  });
  return {
    pid: child.pid!,
    send: <T>(command: ClientCommand) =>
      new Promise<T>((resolveReply, reject) => {
        seq += 1;
        pending.set(seq, { resolve: resolveReply as (value: unknown) => void, reject });
        child.send({ seq, command });
      }),
    stop: stopper(child),
  };
}
