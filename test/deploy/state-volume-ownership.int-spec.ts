import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BaseEvent } from '@ag-ui/core';
import { NO_UPSTREAM_MESSAGE } from '../../src/a2a/decide-upstream';
import { runInput } from '../support/run-input';
import { postRun } from '../support/sse-client';
import { startKernelUpstream, type KernelUpstream } from '../support/start-kernel-upstream';
import {
  NODE_24,
  buildServiceForTests,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process';

/**
 * The gateway as the image runs it (uid and gid 1000, the production build's main.js) on a state volume whose
 * root it does not own, as Kubernetes leaves a freshly formatted volume after `fsGroup: 1000` (root:1000 2775)
 * or a local-path / hostPath one (root:root 0777): ready, runs to RUN_FINISHED, one warning naming the
 * directory and its mode (docs/behaviour/state.md#the-state-directory). The test makes root-owned directories
 * and starts a process as another user: only root can, so it runs as root (as CI does) and is skipped,
 * saying why, otherwise.
 */
const USER = { uid: 1000, gid: 1000 };
const isRoot = process.getuid?.() === 0;
const describeAsRoot = isRoot ? describe : describe.skip;
if (!isRoot) {
  process.stdout.write(
    `skipped ${path.basename(__filename)}: it makes root-owned state directories and starts the gateway as uid 1000, which only root can (run it as root, as CI does)\n`,
  );
}

let buildDir: string;
let workDir: string;
let upstream: KernelUpstream;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  if (!isRoot) return;
  [buildDir, upstream] = await Promise.all([buildServiceForTests(), startKernelUpstream()]);
  // The build and the parent of the state directories are readable by the gateway's user, as in the image.
  fs.chmodSync(buildDir, 0o755);
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agui-volume-'));
  fs.chmodSync(workDir, 0o755);
}, 200_000);
afterEach(async () => {
  await service?.close();
  service = undefined;
});
afterAll(async () => {
  await upstream?.close();
  for (const dir of [buildDir, workDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A volume root as the platform leaves it, and a home of the gateway's own. */
function volume(name: string, owner: { uid: number; gid: number }, mode: number) {
  const stateDir = path.join(workDir, name, 'state');
  const home = path.join(workDir, name, 'home');
  fs.mkdirSync(stateDir, { recursive: true });
  fs.mkdirSync(home);
  fs.chmodSync(path.dirname(stateDir), 0o755);
  fs.chownSync(home, USER.uid, USER.gid);
  fs.chownSync(stateDir, owner.uid, owner.gid);
  fs.chmodSync(stateDir, mode); // after the chown, which clears the setgid bit
  return { stateDir, home };
}

const environment = (stateDir: string, home: string) => ({
  HOME: home,
  IAC_CODE_AGUI_STATE_DIR: stateDir,
  IAC_CODE_AGUI_A2A_URL: upstream.url,
  IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
});

const lastOf = (events: readonly BaseEvent[]) => events.at(-1) as BaseEvent & Record<string, unknown>;

const logLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describeAsRoot.each([
  { name: 'root:1000 2775 (a block volume after fsGroup: 1000)', owner: { uid: 0, gid: 1000 }, mode: 0o2775 },
  { name: 'root:root 0777 (local-path, hostPath)', owner: { uid: 0, gid: 0 }, mode: 0o777 },
])('a state directory the gateway may write to but does not own: $name', ({ name, owner, mode }) => {
  it('is ready, runs a turn to RUN_FINISHED, keeps its thread files private, and warns once naming the directory and its mode', async () => {
    const { stateDir, home } = volume(name.split(' ')[0].replace(/:/g, '-'), owner, mode);
    service = await startServiceProcess(buildDir, environment(stateDir, home), USER);

    const ready = await fetch(`${service.url}health/ready`);
    expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 200 });
    const run = await postRun(service.url, runInput({ threadId: 'volume-thread', runId: 'volume-run' }));
    expect(run.status).toBe(200);
    expect(lastOf(run.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });

    // The volume's root is left as the platform made it; threads/ is the gateway's own and private.
    const root = fs.statSync(stateDir);
    expect({ uid: root.uid, gid: root.gid, mode: root.mode & 0o7777 }).toEqual({ ...owner, mode });
    const threads = fs.statSync(path.join(stateDir, 'threads'));
    expect({ uid: threads.uid, mode: threads.mode & 0o7777 }).toEqual({ uid: USER.uid, mode: 0o700 });
    for (const file of fs.readdirSync(path.join(stateDir, 'threads'))) {
      const stats = fs.statSync(path.join(stateDir, 'threads', file));
      expect({ file, uid: stats.uid, mode: stats.mode & 0o777 }).toEqual({
        file,
        uid: USER.uid,
        mode: 0o600,
      });
    }
    const warnings = logLines(service.output()).filter((line) => line.path === stateDir);
    expect(warnings).toEqual([
      expect.objectContaining({
        level: 40, // pino's warn
        msg: "the state directory is not this process's: left as it is, not made private (0700)",
        mode: mode.toString(8).padStart(4, '0'),
        owner: `${owner.uid}:${owner.gid}`,
      }),
    ]);
  }, 60_000);
});

describeAsRoot('a state directory the gateway may not write to', () => {
  it('is not ready: the reason and one log line name the errno and the path', async () => {
    const { stateDir, home } = volume('read-only', { uid: 0, gid: 0 }, 0o755);
    service = await startServiceProcess(buildDir, environment(stateDir, home), USER);

    const probes = [];
    for (let probe = 0; probe < 3; probe++) {
      const ready = await fetch(`${service.url}health/ready`);
      probes.push({ status: ready.status, body: JSON.stringify(await ready.json()) });
    }
    const reason = `unavailable: EACCES ${path.join(stateDir, 'threads')}`;
    for (const probe of probes) {
      expect(probe.status).toBe(503);
      expect(probe.body).toContain(reason);
    }
    const run = await postRun(service.url, runInput({ threadId: 'denied-thread', runId: 'denied-run' }));
    expect(run.status).toBe(503);
    const failures = logLines(service.output()).filter((line) => line.msg === 'a thread store write failed');
    expect(failures).toEqual([
      expect.objectContaining({ errno: 'EACCES', path: path.join(stateDir, 'threads') }),
    ]);
  }, 60_000);
});

describeAsRoot('the production build with no A2A kernel', () => {
  it('refuses to start naming what that build can start, not the demo agent it does not hold', () => {
    const { stateDir, home } = volume('no-kernel', USER, 0o700);
    const refused = spawnSync(NODE_24, [path.join(buildDir, 'main.js')], {
      ...USER,
      env: { PATH: '/usr/bin:/bin', HOME: home, IAC_CODE_AGUI_STATE_DIR: stateDir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(refused.status).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(NO_UPSTREAM_MESSAGE);
    expect(refused.stdout + refused.stderr).not.toContain('IAC_CODE_AGUI_UPSTREAM=demo');
  });
});
