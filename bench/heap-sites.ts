/**
 * `npm run build && node --import tsx bench/heap-sites.ts [open runs = 1000]`: where the gateway's memory is, idle
 * (after 20 warm-up runs, as the open-runs scenario) and with `open runs` `silent` runs held open. The gateway
 * (`dist/main.js`) runs under the inspector with V8's sampling heap profiler on from its first line; after a full
 * GC it prints the live heap by allocation site (package / function), the heap snapshot's growth per open run by
 * object kind, and the RSS by mapping. The inspector and the profiler add their own memory: read the shares and
 * the per-run growth, not the absolute RSS. Method and results: docs/benchmarks.md "Memory".
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  heapBySite,
  kindGrowth,
  snapshotByKind,
  type HeapSnapshot,
  type SamplingHeapNode,
} from './profile/summarize-heap';
import {
  freePort,
  IMAGE_NODE_OPTIONS,
  NODE_24,
  REPO_ROOT,
  startClient,
  startUpstream,
  untilAnswering,
} from './support/bench-processes';
import { formatBreakdown, memoryBreakdown } from './support/memory-breakdown';
import { gatewayTarget } from './support/stream-targets';
import { planText } from './upstream/upstream-plan';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

class Inspector {
  private seq = 0;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private chunks: string[] = [];
  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as {
        id?: number;
        method?: string;
        params?: { chunk: string };
        result?: unknown;
      };
      if (message.method === 'HeapProfiler.addHeapSnapshotChunk') this.chunks.push(message.params!.chunk);
      if (message.id !== undefined) this.pending.get(message.id)?.(message.result);
    });
  }
  static async connect(port: number): Promise<Inspector> {
    for (let attempt = 0; ; attempt++) {
      const list = await fetch(`http://127.0.0.1:${port}/json/list`).then(
        (response) => response.json() as Promise<{ webSocketDebuggerUrl: string }[]>,
        () => undefined,
      );
      if (list?.[0]) {
        const socket = new WebSocket(list[0].webSocketDebuggerUrl);
        await new Promise((done) => socket.addEventListener('open', done, { once: true }));
        return new Inspector(socket);
      }
      if (attempt > 200) throw new Error('no inspector');
      await sleep(50);
    }
  }
  send<T>(method: string, params: object = {}): Promise<T> {
    const id = ++this.seq;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((done) => this.pending.set(id, done as (result: unknown) => void));
  }
  async snapshot(): Promise<HeapSnapshot> {
    this.chunks = [];
    await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    return JSON.parse(this.chunks.join('')) as HeapSnapshot;
  }
  close(): void {
    this.socket.close();
  }
}

const kb = (lines: { name: string; kb: number }[]) =>
  lines.map((line) => `  ${String(line.kb).padStart(9)} KB  ${line.name}`).join('\n');

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 1000);
  const workDir = await mkdtemp(join(tmpdir(), 'agui-heap-'));
  const cwd = join(workDir, 'workspace');
  await mkdir(cwd);
  const upstream = await startUpstream();
  const client = startClient();
  const port = await freePort();
  const inspectPort = await freePort();
  const child = spawn(NODE_24, [`--inspect-brk=127.0.0.1:${inspectPort}`, join(REPO_ROOT, 'dist/main.js')], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      IAC_CODE_AGUI_A2A_URL: upstream.url,
      IAC_CODE_AGUI_PORT: String(port),
      IAC_CODE_AGUI_ALLOWED_CWDS: cwd,
      IAC_CODE_AGUI_STATE_DIR: join(workDir, 'state'),
      IAC_CODE_AGUI_LOG_LEVEL: 'warn',
      IAC_CODE_AGUI_HEARTBEAT_SECONDS: '1',
      NODE_OPTIONS: IMAGE_NODE_OPTIONS,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const inspector = await Inspector.connect(inspectPort);
    await inspector.send('HeapProfiler.enable');
    await inspector.send('HeapProfiler.startSampling', { samplingInterval: 1024 });
    await inspector.send('Runtime.runIfWaitingForDebugger');
    const gateway = await untilAnswering(
      child,
      `http://127.0.0.1:${port}/`,
      'ping',
      performance.now(),
      60_000,
    );
    const target = (plan: string) => gatewayTarget(gateway.url, plan, cwd);
    await client.send({
      kind: 'concurrent',
      target: target(planText({ kind: 'burst', deltas: 100 })),
      runs: 20,
    });
    await sleep(1000);
    const measure = async (label: string) => {
      await inspector.send('HeapProfiler.collectGarbage');
      const { profile } = await inspector.send<{ profile: { head: SamplingHeapNode } }>(
        'HeapProfiler.getSamplingProfile',
      );
      const kinds = snapshotByKind(await inspector.snapshot());
      await inspector.send('HeapProfiler.collectGarbage');
      process.stdout.write(
        `\n## ${label}\n${formatBreakdown(await memoryBreakdown(child.pid!, gateway.url))}\n`,
      );
      return { sites: heapBySite(profile.head, Infinity), kinds };
    };
    const idle = await measure('idle, after 20 warm-up runs');
    process.stdout.write(
      `live heap by allocation site, by package:\n${kb(idle.sites.byArea.slice(0, 30))}\n`,
    );
    process.stdout.write(`by function:\n${kb(idle.sites.byFunction.slice(0, 30))}\n`);
    const opened = await client.send<number>({
      kind: 'open',
      target: target(planText({ kind: 'silent' })),
      runs,
      batch: 100,
    });
    await sleep(2000);
    const open = await measure(`${opened} open runs`);
    const diff = (before: typeof idle.sites.byArea, after: typeof idle.sites.byArea) => {
      const start = new Map(before.map((line) => [line.name, line.kb]));
      return after
        .map((line) => ({
          name: line.name,
          kb: Math.round(((line.kb - (start.get(line.name) ?? 0)) * 1024) / opened) / 1024,
        }))
        .sort((a, b) => b.kb - a.kb)
        .slice(0, 30)
        .map((line) => ({ ...line, kb: Math.round(line.kb * 1024) / 1000 }));
    };
    process.stdout.write(
      `growth per open run by allocation site (KB per run shown as bytes/1000), by package:\n`,
    );
    process.stdout.write(`${kb(diff(idle.sites.byArea, open.sites.byArea))}\nby function:\n`);
    process.stdout.write(`${kb(diff(idle.sites.byFunction, open.sites.byFunction))}\n`);
    process.stdout.write(`heap snapshot growth per open run, by kind (bytes each, count each):\n`);
    for (const line of kindGrowth(idle.kinds, open.kinds, opened)) {
      process.stdout.write(`  ${String(line.bytesEach).padStart(7)} B  ×${line.countEach}  ${line.kind}\n`);
    }
    const total = [...open.kinds.values()].reduce((sum, kind) => sum + kind.bytes, 0);
    const totalIdle = [...idle.kinds.values()].reduce((sum, kind) => sum + kind.bytes, 0);
    process.stdout.write(
      `heap snapshot total: idle ${(totalIdle / 2 ** 20).toFixed(1)} MB, open ${(total / 2 ** 20).toFixed(1)} MB, ` +
        `${((total - totalIdle) / opened / 1024).toFixed(1)} KB per open run\n`,
    );
    await client.send({ kind: 'close-open' });
    inspector.close();
    await gateway.stop();
  } finally {
    child.kill();
    await client.stop();
    await upstream.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`heap-sites failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
