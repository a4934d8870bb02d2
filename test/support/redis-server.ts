import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import Redis from 'ioredis';
import { trackedClose } from './open-resources';

export interface RunningRedis {
  /** `redis://127.0.0.1:<port>/0` */
  readonly url: string;
  /** SIGSTOP / SIGCONT: a Redis that stalls (a fork for a snapshot, a paused VM) and comes back. */
  signal(signal: 'SIGSTOP' | 'SIGCONT'): void;
  /** Stops the server (SIGTERM, then SIGKILL after 3 s) and removes its directory. */
  close(): Promise<void>;
}

/** Installed by scripts/test-setup.sh (apt-get install redis-server); REDIS_SERVER points to another build. */
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const READY_TIMEOUT_MS = 10_000;

export interface RedisServerOptions {
  /** `appendonly`; default `yes` (AOF, fsync every second), as the gateway requires of a production Redis. */
  readonly appendonly?: 'yes' | 'no';
  /** `maxmemory-policy`; default Redis's own (`noeviction`). */
  readonly maxmemoryPolicy?: string;
  /** A port chosen beforehand (`freeRedisPort`): a gateway started before its Redis, a Redis restarted. */
  readonly port?: number;
}

/**
 * A real, throw-away `redis-server` for the Redis store tests: loopback only, a free port, its own temp dir
 * (its AOF lives and dies there), no RDB snapshots, so a suite never touches a Redis it did not start.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RunningRedis> {
  const port = options.port ?? (await freeRedisPort());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agui-redis-'));
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      options.appendonly ?? 'yes',
      '--appendfsync',
      'everysec',
      ...(options.maxmemoryPolicy ? ['--maxmemory-policy', options.maxmemoryPolicy] : []),
      '--protected-mode',
      'yes',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  let spawnError: Error | undefined;
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // A spawn failure (ENOENT: redis-server not installed) emits 'error' and never 'exit'.
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      spawnError = error;
      resolve();
    });
  });
  const close = trackedClose(`redis-server on port ${port}`, async () => {
    if (child.exitCode === null && child.signalCode === null && !spawnError) {
      child.kill('SIGTERM');
      const forceKill = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(forceKill);
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const url = `redis://127.0.0.1:${port}/0`;
  try {
    await waitUntilPingable(url, () => child.exitCode !== null || child.signalCode !== null || !!spawnError);
  } catch (error) {
    await close();
    const why = spawnError
      ? `${REDIS_SERVER}: ${spawnError.message} (scripts/test-setup.sh installs it)`
      : stderr;
    throw new Error(`redis-server did not start: ${String(error)}\n${why}`, { cause: error });
  }
  return { url, signal: (name) => void child.kill(name), close };
}

async function waitUntilPingable(url: string, hasExited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (hasExited()) throw new Error('exited before it answered PING');
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined); // refused while the server starts: the loop retries
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    } finally {
      client.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Port 0 picks a free port; the tiny window before redis-server binds it is acceptable in tests. */
export function freeRedisPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}
