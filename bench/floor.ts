/**
 * `node --import tsx bench/floor.ts`: the floors the performance targets cannot go below, whatever the
 * gateway does.
 * - Idle RSS of the framework alone: a bare `node:http` server, a NestJS + Express hello app, and that app with
 *   the libraries every run of the gateway uses loaded (support/floor-apps/), each a child on Node 24 with the image's `NODE_OPTIONS` (`IMAGE_NODE_OPTIONS`, which a
 *   deploy spec keeps equal to the Dockerfile's) and glibc's malloc, as the other bench figures; VmRSS 3 s after
 *   20 warm-up POSTs, two rounds each, alternating. The gateway's idle RSS is this plus its own code and state.
 * - Heap held by one open request of a NestJS route (support/floor-apps/nest-open-routes.mjs): a handler that
 *   returns a Promise and writes through `@Res()`, one that returns an Observable, the same through one
 *   pass-through interceptor. V8's heap in use after two full collections, before and with 1,000 requests
 *   held open by this process (the client's memory is not the app's), per request; median of two rounds.
 * - RSS per open stream of the pass-through proxy (`baseline-proxy.ts`, the image's NODE_OPTIONS): the bench
 *   upstream and client, 20 warm-up bursts, then 1,000 silent streams held open; (peak VmRSS over 5 s − VmRSS
 *   before) / streams, as `openRunKb` is measured, two rounds. Two sockets and Node's HTTP objects per stream,
 *   nothing parsed: the floor of an open run of any relay written on Node's HTTP stack.
 * - CPU of the durable writes of one short run: admission, task id, session id, terminal, made one after the
 *   other through the project's `FileThreadStore` (temp file, fsync, rename, directory fsync) on a temp dir under
 *   os.tmpdir(). In-process; `process.cpuUsage()` is getrusage(RUSAGE_SELF), which counts every thread of the
 *   process (the libuv pool that opens, fsyncs and renames too); the sum of /proc/self/task/<tid>/stat is printed
 *   beside it as a check. The kernel's own work for the journal (jbd2, block I/O) is not the process's and is
 *   not counted. A busy machine inflates both CPU and wall figures: the load average is printed.
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { findFreeLoopbackPort } from '../src/a2a/managed/free-loopback-port';
import { decideAdmission } from '../src/threads/decide-admission';
import { FileThreadStore } from '../src/threads/file-thread-store';
import { withLearnedIdentities } from '../src/threads/run-persistence';
import { withExecutionTerminal } from '../src/threads/terminal-execution';
import type { ThreadState } from '../src/threads/thread-state';
import { canonicalDigest } from '../src/wire/canonical-digest';
import {
  IMAGE_NODE_OPTIONS,
  NODE_24,
  REPO_ROOT,
  startClient,
  startProxy,
  startUpstream,
  untilAnswering,
} from './support/bench-processes';
import { a2aTarget } from './support/stream-targets';
import { planText } from './upstream/upstream-plan';
import { processRssMb } from './support/process-stats';
import { round } from './support/sample-stats';

const APPS = {
  'bare node:http': 'bare-http.mjs',
  'NestJS+Express hello': 'nest-express.mjs',
  'the same + the libraries every run uses': 'nest-express-libraries.mjs',
} as const;
type AppName = keyof typeof APPS;
const ROUNDS = 2;
const WARM_UP_POSTS = 20;
const SETTLE_MS = 3_000;
const WARM_UP_RUNS = 50;
const MEASURED_RUNS = 300;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[Math.floor(middle)];
};

/** Starts one app, waits for it to answer, warms it up, lets it settle and returns its VmRSS in MB. */
async function idleRssMb(app: AppName): Promise<number> {
  const port = await findFreeLoopbackPort();
  const started = performance.now();
  const child = spawn(NODE_24, [join(__dirname, 'support/floor-apps', APPS[app]), String(port)], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', NODE_OPTIONS: IMAGE_NODE_OPTIONS },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}/`;
  const server = await untilAnswering(child, url, 'health', started, 20_000);
  try {
    for (let index = 0; index < WARM_UP_POSTS; index++) {
      const response = await fetch(url, { method: 'POST', body: '{"hi":1}' });
      if (!response.ok || (await response.text()) !== 'data: hi\n\n') throw new Error(`${app}: bad answer`);
    }
    await sleep(SETTLE_MS);
    return processRssMb(server.pid);
  } finally {
    await server.stop();
  }
}

const ROUTE_SHAPES = ['promise', 'observable', 'intercepted'] as const;
type RouteShape = (typeof ROUTE_SHAPES)[number];
const OPEN_REQUESTS = 1_000;

/** KB of V8 heap one open request of the route holds (see the file's comment). */
async function openRequestHeapKb(shape: RouteShape): Promise<number> {
  const port = await findFreeLoopbackPort();
  const started = performance.now();
  const child = spawn(
    NODE_24,
    ['--expose-gc', join(__dirname, 'support/floor-apps/nest-open-routes.mjs'), String(port)],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', NODE_OPTIONS: IMAGE_NODE_OPTIONS },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const server = await untilAnswering(child, `${url}/`, 'health', started, 20_000);
  const heap = async () => {
    const [opened, bytes] = (await (await fetch(`${url}/heap`)).text()).split(' ').map(Number);
    return { opened, bytes };
  };
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const held = [] as ReturnType<typeof request>[];
  try {
    const before = await heap();
    for (let index = 0; index < OPEN_REQUESTS; index++) {
      const held_ = request({ host: '127.0.0.1', port, method: 'POST', path: `/${shape}`, agent });
      held_.on('error', () => undefined).end();
      held.push(held_);
    }
    let after = await heap();
    while (after.opened < before.opened + OPEN_REQUESTS) {
      await sleep(100);
      after = await heap();
    }
    return round((after.bytes - before.bytes) / 1024 / OPEN_REQUESTS, 2);
  } finally {
    for (const held_ of held) held_.destroy();
    agent.destroy();
    await server.stop();
  }
}

const PROXY_OPEN_STREAMS = 1_000;

/** KB of RSS per open stream of the pass-through proxy, one value per round (see the file's comment). */
async function proxyOpenStreamKb(rounds: number): Promise<number[]> {
  const upstream = await startUpstream();
  const client = startClient();
  const figures: number[] = [];
  try {
    for (let round_ = 0; round_ < rounds; round_++) {
      const proxy = await startProxy(upstream.url, IMAGE_NODE_OPTIONS);
      try {
        const target = (plan: Parameters<typeof planText>[0]) => a2aTarget(proxy.url, planText(plan));
        await client.send({ kind: 'concurrent', target: target({ kind: 'burst', deltas: 100 }), runs: 20 });
        await sleep(1_000);
        const idleMb = processRssMb(proxy.pid);
        const opened = await client.send<number>({
          kind: 'open',
          target: target({ kind: 'silent' }),
          runs: PROXY_OPEN_STREAMS,
          batch: 100,
        });
        let openMb = processRssMb(proxy.pid);
        for (let waited = 0; waited < 5_000; waited += 250) {
          await sleep(250);
          openMb = Math.max(openMb, processRssMb(proxy.pid));
        }
        figures.push(round(((openMb - idleMb) * 1024) / opened, 1));
        await client.send({ kind: 'close-open' });
      } finally {
        await proxy.stop();
      }
    }
    return figures;
  } finally {
    await client.stop();
    await upstream.stop();
  }
}

/** The four documents one short run writes, in its order, for a new thread. */
function runDocuments(index: number): ThreadState[] {
  const threadId = `floor-thread-${index}`;
  const runId = `run-${index}`;
  const decision = decideAdmission(
    undefined,
    {
      threadId,
      runId,
      digest: canonicalDigest(
        JSON.stringify({ threadId, runId, messages: [{ role: 'user', content: 'hi' }] }),
      ),
      cwd: '/srv/ws',
      userId: null,
      rosInvocationId: `inv-${index}`,
      isResume: false,
      isThreadBusy: false,
      newExecutionId: randomUUID(),
    },
    Date.now(),
  );
  if (decision.kind !== 'admitted') throw new Error(`${threadId}: ${decision.code}`);
  const withTask = withLearnedIdentities(decision.state, { taskId: randomUUID() });
  const withSession = withLearnedIdentities(withTask, { sessionId: randomUUID() });
  return [decision.state, withTask, withSession, withExecutionTerminal(withSession)];
}

/** utime + stime of every live thread of this process, in ms (clock ticks of 10 ms). */
async function taskCpuMs(): Promise<number> {
  let ticks = 0;
  for (const task of await readdir('/proc/self/task')) {
    const stat = await readFile(`/proc/self/task/${task}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/** Totals over the measured runs, in ms. */
interface WriteFigures {
  readonly cpuMs: number;
  readonly systemMs: number;
  readonly taskCpuMs: number;
  readonly wallMs: number;
}

async function durableWrites(): Promise<WriteFigures> {
  const stateDir = await mkdtemp(join(tmpdir(), 'floor-state-'));
  const store = new FileThreadStore(stateDir);
  const runs = Array.from({ length: WARM_UP_RUNS + MEASURED_RUNS }, (_, index) => runDocuments(index));
  const write = async (documents: ThreadState[]) => {
    for (const document of documents) await store.save(document);
  };
  try {
    for (const documents of runs.slice(0, WARM_UP_RUNS)) await write(documents);
    const cpuBefore = process.cpuUsage();
    const tasksBefore = await taskCpuMs();
    const started = performance.now();
    for (const documents of runs.slice(WARM_UP_RUNS)) await write(documents);
    const wallMs = performance.now() - started;
    const tasksMs = (await taskCpuMs()) - tasksBefore;
    const cpu = process.cpuUsage(cpuBefore);
    return { cpuMs: (cpu.user + cpu.system) / 1000, systemMs: cpu.system / 1000, taskCpuMs: tasksMs, wallMs };
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  console.log(`load average at start: ${load()}; NODE_OPTIONS of the apps: ${IMAGE_NODE_OPTIONS}`);
  const rss = Object.fromEntries(Object.keys(APPS).map((app) => [app, [] as number[]])) as Record<
    AppName,
    number[]
  >;
  for (let round_ = 1; round_ <= ROUNDS; round_++) {
    for (const app of Object.keys(APPS) as AppName[]) {
      const mb = await idleRssMb(app);
      rss[app].push(mb);
      console.log(`round ${round_}: ${app} idle RSS ${mb.toFixed(1)} MB`);
    }
  }
  for (const app of Object.keys(APPS) as AppName[]) {
    console.log(
      `${app}: ${rss[app].map((mb) => mb.toFixed(1)).join(', ')} MB, median ${median(rss[app]).toFixed(1)} MB`,
    );
  }

  const routeKb = Object.fromEntries(ROUTE_SHAPES.map((shape) => [shape, [] as number[]])) as Record<
    RouteShape,
    number[]
  >;
  for (let round_ = 1; round_ <= ROUNDS; round_++) {
    for (const shape of ROUTE_SHAPES) routeKb[shape].push(await openRequestHeapKb(shape));
  }
  const openKb = (shape: RouteShape) => median(routeKb[shape]).toFixed(2);
  console.log(
    `heap per open request of a NestJS route (${OPEN_REQUESTS} open, after full GCs): Promise + @Res() ` +
      `${openKb('promise')} KB, Observable ${openKb('observable')} KB, Observable + one interceptor ` +
      `${openKb('intercepted')} KB (rounds: ${ROUTE_SHAPES.map((shape) => routeKb[shape].join('/')).join(', ')})`,
  );

  const proxyKb = await proxyOpenStreamKb(ROUNDS);
  console.log(
    `RSS per open stream of the pass-through proxy (${PROXY_OPEN_STREAMS} open, NODE_OPTIONS=${IMAGE_NODE_OPTIONS}): ` +
      `${proxyKb.join(', ')} KB, median ${median(proxyKb).toFixed(1)} KB`,
  );

  const writes = await durableWrites();
  const perRun = (ms: number) => round(ms / MEASURED_RUNS, 3);
  console.log(
    `durable writes (${MEASURED_RUNS} runs x 4 after ${WARM_UP_RUNS} unmeasured, temp dir under ${tmpdir()}): ` +
      `CPU ${perRun(writes.cpuMs)} ms per run, ${perRun(writes.systemMs)} of it system (process.cpuUsage; ` +
      `/proc/self/task sum ${perRun(writes.taskCpuMs)} ms), ` +
      `wall ${perRun(writes.wallMs)} ms per run`,
  );
  console.log(`load average at end: ${load()}`);
  console.log(
    `framework floor: bare node:http idle RSS ${median(rss['bare node:http']).toFixed(1)} MB, ` +
      `NestJS+Express hello idle RSS ${median(rss['NestJS+Express hello']).toFixed(1)} MB, ` +
      `with the libraries ${median(rss['the same + the libraries every run uses']).toFixed(1)} MB ` +
      `(NODE_OPTIONS=${IMAGE_NODE_OPTIONS}, glibc malloc); durable writes: ${perRun(writes.cpuMs)} ms CPU per run ` +
      `(4 writes), ${perRun(writes.wallMs)} ms wall`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
