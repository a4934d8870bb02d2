import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEMO_NOT_BUILT_MESSAGE } from '../../src/a2a/demo-upstream';
import { runInput } from '../support/run-input';
import { postRun } from '../support/sse-client';
import { REPO_ROOT } from './support/helm';
import { parseDockerfile, resolveTarget } from './support/parse-dockerfile';
import { runCommand } from './support/run-command';

/**
 * No Docker engine here, so the image's runtime is rebuilt the way the Dockerfile builds it: `npm ci --omit=dev`
 * from the lock file plus the production dist/ (the gateway target), then with the demo build's dist/demo-kernel
 * added (the demo target), started with the image's CMD on the Node 24 binary of the dev install (by absolute
 * path: the system `node` may be another major).
 */
const NODE_24 = fs.realpathSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'node'));
const PRODUCTION_INSTALL = [
  'ci',
  '--omit=dev',
  '--ignore-scripts',
  '--no-audit',
  '--no-fund',
  '--prefer-offline',
];
/** The Dockerfile's cross-install for linux/arm64 (prod-deps stage, TARGETARCH=arm64). */
const ARM64_INSTALL = [...PRODUCTION_INSTALL, '--os=linux', '--cpu=arm64', '--libc=glibc'];
const DEV_ONLY_PACKAGES = [
  'jest',
  'typescript',
  '@nestjs/cli',
  'tsx',
  'node',
  'ts-jest',
  'eslint',
  '@nestjs/testing',
];

const dockerfile = parseDockerfile(fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8'));
const gatewayImage = resolveTarget(dockerfile, 'gateway');
const demoImage = resolveTarget(dockerfile, 'demo');
const packageJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
};
const lockFile = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; optional?: boolean }>;
};

/** npm's own `#!/usr/bin/env node` must find Node 24 too: its directory goes first on PATH. */
const npmEnvironment = {
  ...process.env,
  PATH: `${path.dirname(NODE_24)}${path.delimiter}${process.env.PATH}`,
};

async function installInto(directory: string, args: readonly string[]): Promise<void> {
  fs.mkdirSync(directory, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) {
    fs.copyFileSync(path.join(REPO_ROOT, file), path.join(directory, file));
  }
  const result = await runCommand('npm', args, { cwd: directory, env: npmEnvironment, timeoutMs: 120_000 });
  if (result.code !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.stderr}`);
}

async function npmRun(script: string): Promise<void> {
  const result = await runCommand('npm', ['run', script], {
    cwd: REPO_ROOT,
    env: npmEnvironment,
    timeoutMs: 150_000,
  });
  if (result.code !== 0) throw new Error(`npm run ${script} failed:\n${result.stdout}\n${result.stderr}`);
}

/** Files under `directory` whose text names `needle`. */
function filesNaming(directory: string, needle: string): string[] {
  return fs
    .readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(directory, file))
    .filter((file) => fs.statSync(file).isFile() && fs.readFileSync(file, 'utf8').includes(needle));
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}ping`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no /ping within 30 s:\n${output()}`);
}

/** Runs the image's HEALTHCHECK command with Node 24 against a port; resolves to its exit code. */
function runHealthcheck(port: number): number | null {
  const [program, ...args] = gatewayImage.healthcheck?.command ?? [];
  if (program !== 'node') throw new Error(`unexpected HEALTHCHECK program ${program}`);
  return spawnSync(NODE_24, args, { env: { IAC_CODE_AGUI_PORT: String(port) }, timeout: 10_000 }).status;
}

describe('the production start command on a production install', () => {
  let workDir: string;
  let appDir: string;
  let arm64Dir: string;
  let child: ChildProcess;
  let port: number;
  let url: string;
  let output = '';
  /** What the gateway target's dist/ names "demo-kernel" in, and its start with IAC_CODE_AGUI_UPSTREAM=demo. */
  let productionDemoFiles: string[];
  let productionDemoStart: { status: number | null; output: string };

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agui-prod-'));
    appDir = path.join(workDir, 'app');
    arm64Dir = path.join(workDir, 'arm64');
    // A dist/ with the demo build in it is not the production build: build it again (nest build empties dist/).
    if (
      !fs.existsSync(path.join(REPO_ROOT, 'dist', 'main.js')) ||
      fs.existsSync(path.join(REPO_ROOT, 'dist', 'demo-kernel'))
    ) {
      await npmRun('build');
    }
    await Promise.all([installInto(appDir, PRODUCTION_INSTALL), installInto(arm64Dir, ARM64_INSTALL)]);
    fs.cpSync(path.join(REPO_ROOT, 'dist'), path.join(appDir, 'dist'), { recursive: true });
    // A container's environment: the image's ENV, not this process's; loopback and a free port on a shared host.
    const containerEnv = (image: typeof gatewayImage, listenPort: number) => ({
      ...image.env,
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: workDir,
      IAC_CODE_AGUI_HOST: '127.0.0.1',
      IAC_CODE_AGUI_PORT: String(listenPort),
      IAC_CODE_AGUI_STATE_DIR: path.join(workDir, 'state'),
      IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
    });

    productionDemoFiles = filesNaming(path.join(appDir, 'dist'), 'demo-kernel');
    const [, ...gatewayArgs] = gatewayImage.cmd ?? [];
    const refused = spawnSync(NODE_24, gatewayArgs, {
      cwd: appDir,
      env: { ...containerEnv(gatewayImage, await freePort()), IAC_CODE_AGUI_UPSTREAM: 'demo' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    productionDemoStart = { status: refused.status, output: refused.stdout + refused.stderr };

    // The demo target: the gateway image plus the demo build's dist/demo-kernel.
    await npmRun('build:demo');
    fs.cpSync(path.join(REPO_ROOT, 'dist', 'demo-kernel'), path.join(appDir, 'dist', 'demo-kernel'), {
      recursive: true,
    });
    port = await freePort();
    url = `http://127.0.0.1:${port}/`;
    const [program, ...args] = demoImage.cmd ?? [];
    expect(program).toBe('node');
    child = spawn(NODE_24, args, {
      cwd: appDir,
      env: containerEnv(demoImage, port),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForPing(url, child, () => output);
  }, 240_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  }, 20_000);

  it('the gateway target holds no demo code: no file of its dist/ names demo-kernel', () => {
    expect(fs.existsSync(path.join(appDir, 'dist', 'main.js'))).toBe(true);
    expect(productionDemoFiles).toEqual([]);
  });

  it('the gateway target refuses IAC_CODE_AGUI_UPSTREAM=demo at boot, naming what to use instead', () => {
    expect(productionDemoStart.status).toBe(1);
    expect(productionDemoStart.output).toContain(DEMO_NOT_BUILT_MESSAGE);
  });

  it('the demo target starts the demo agent with the image CMD', () => {
    expect(demoImage.env.IAC_CODE_AGUI_UPSTREAM).toBe('demo');
    expect(demoImage.cmd).toEqual(['node', '--expose-gc', 'dist/demo-kernel/demo-main.js']);
  });

  it('runs on Node 24: the binary by absolute path is v24 and it is what the service process executes', () => {
    expect(spawnSync(NODE_24, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim()).toMatch(
      /^v24\./,
    );
    if (process.platform === 'linux') {
      expect(fs.realpathSync(`/proc/${child.pid}/exe`)).toBe(NODE_24);
    }
  });

  it('answers /ping (AgentCore health) and /health with the package version', async () => {
    const ping = await fetch(`${url}ping`);
    expect({ status: ping.status, body: await ping.json() }).toEqual({
      status: 200,
      body: { status: 'Healthy', time_of_last_update: expect.any(Number) },
    });
    const health = (await (await fetch(`${url}health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', serverVersion: packageJson.version, upstream: 'demo' });
  });

  it('completes a demo run over POST / with exactly one RUN_FINISHED, last', async () => {
    const response = await postRun(url, runInput({ threadId: 'deploy-thread', runId: 'deploy-run' }));
    expect(response.status).toBe(200);
    const types = response.events.map((event) => event.type);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.filter((type) => type === 'RUN_FINISHED')).toHaveLength(1);
    expect(types[types.length - 1]).toBe('RUN_FINISHED');
  });

  it("the image's HEALTHCHECK command passes against the service and fails against a closed port", async () => {
    expect(runHealthcheck(port)).toBe(0);
    expect(runHealthcheck(await freePort())).toBe(1);
  });

  it('installs no devDependency: every dev-only package of the lock file is absent', () => {
    const devOnly = Object.entries(lockFile.packages)
      .filter(([location, entry]) => location.startsWith('node_modules/') && entry.dev)
      .map(([location]) => location);
    expect(devOnly.map((location) => location.slice('node_modules/'.length))).toEqual(
      expect.arrayContaining(DEV_ONLY_PACKAGES),
    );
    expect(devOnly.filter((location) => fs.existsSync(path.join(appDir, location)))).toEqual([]);
    expect(fs.existsSync(path.join(appDir, 'node_modules', '@nestjs', 'core'))).toBe(true);
  });

  it("loads sharp's native binary for this platform from the production install", () => {
    const result = spawnSync(NODE_24, ['-e', "require('sharp'); process.stdout.write(process.arch)"], {
      cwd: appDir,
      encoding: 'utf8',
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(fs.existsSync(path.join(appDir, 'node_modules', '@img', `sharp-linux-${result.stdout}`))).toBe(
      true,
    );
  });

  it("the Dockerfile's linux/arm64 cross-install gets sharp for arm64 only", () => {
    const sharpBinaries = fs
      .readdirSync(path.join(arm64Dir, 'node_modules', '@img'))
      .filter((name) => name.startsWith('sharp-'))
      .sort();
    expect(sharpBinaries).toEqual(['sharp-libvips-linux-arm64', 'sharp-linux-arm64']);
    expect(fs.existsSync(path.join(arm64Dir, 'node_modules', 'jest'))).toBe(false);
  });
});
