import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { REPO_ROOT, renderChart } from './support/helm';
import { type Deployment, containerNamed, onlyOfKind } from './support/k8s-manifests';

/**
 * The chart's exec commands (kernel probes, the kernel's preStop), run as the kubelet would run them in the
 * container: the rendered argv on Node 24 (the images' Node), against loopback servers that answer like the
 * processes they stand for. The kernel's /health answers 200 only with its bearer token (iac-code 0.16.0's auth
 * middleware covers /health too; a 401 otherwise).
 */
const NODE_24 = fs.realpathSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'node'));
const KERNEL_TOKEN = 'kernel-token-0123456789';

async function listen(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

async function stop(server: Server): Promise<void> {
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await closed;
}

/** Starts `command` (its first word must be node) with only `env`; resolves with the child. */
function start(command: readonly string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [program, ...args] = command;
  if (program !== 'node') throw new Error(`unexpected program ${program}`);
  return spawn(NODE_24, args, { env, stdio: 'ignore' });
}

const exitCode = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

function kernelOf(set: string[]) {
  return containerNamed(onlyOfKind<Deployment>(renderChart({ set }), 'Deployment'), 'iac-code-kernel');
}

describe('the chart exec commands, run for real', () => {
  let kernel: Server;
  const kernelRequests: (string | undefined)[] = [];

  beforeAll(async () => {
    kernel = await listen((request, response) => {
      kernelRequests.push(request.headers.authorization);
      const authorized = request.headers.authorization === `Bearer ${KERNEL_TOKEN}`;
      response.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
      response.end(JSON.stringify(authorized ? { status: 'healthy' } : { error: 'Unauthorized' }));
    });
  });

  afterAll(async () => {
    if (kernel.listening) await stop(kernel);
  });

  it.each(['startupProbe', 'livenessProbe'] as const)(
    "kernel %s: passes with the container's token, fails with another one",
    async (probeName) => {
      const probe = kernelOf([`kernel.port=${portOf(kernel)}`])[probeName];
      if (!probe || !('exec' in probe)) throw new Error(`${probeName} is not an exec probe`);
      const before = kernelRequests.length;
      expect(await exitCode(start(probe.exec.command, { IACCODE_A2A_HTTP_TOKEN: KERNEL_TOKEN }))).toBe(0);
      expect(await exitCode(start(probe.exec.command, { IACCODE_A2A_HTTP_TOKEN: 'wrong' }))).toBe(1);
      expect(kernelRequests.slice(before)).toEqual([`Bearer ${KERNEL_TOKEN}`, 'Bearer wrong']);
    },
  );

  it('kernel liveness fails when nothing answers on the kernel port', async () => {
    const gone = await listen(() => undefined);
    const port = portOf(gone);
    await stop(gone);
    const probe = kernelOf([`kernel.port=${port}`]).livenessProbe;
    if (!probe || !('exec' in probe)) throw new Error('livenessProbe is not an exec probe');
    expect(await exitCode(start(probe.exec.command, { IACCODE_A2A_HTTP_TOKEN: KERNEL_TOKEN }))).toBe(1);
  });

  it("nativeSidecar=false: the kernel's preStop waits while the gateway listens and ends once it stopped", async () => {
    let probes = 0;
    let secondProbe: () => void = () => undefined;
    const probedTwice = new Promise<void>((resolve) => (secondProbe = resolve));
    const gateway = await listen((_request, response) => {
      probes += 1;
      if (probes === 2) secondProbe();
      // A draining gateway may answer 503: still listening, so the kernel must still wait.
      response.writeHead(503).end();
    });
    const kernelContainer = kernelOf(['kernel.nativeSidecar=false', `config.port=${portOf(gateway)}`]);
    const command = kernelContainer.lifecycle?.preStop?.exec.command;
    if (!command) throw new Error('no preStop exec command');
    const child = start(command, {});
    try {
      await probedTwice;
      expect(child.exitCode).toBeNull();
      await stop(gateway);
      expect(await exitCode(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      if (gateway.listening) await stop(gateway);
    }
  });
});
