/**
 * Measures the hostile-input figures against the production build (`npm run build` first):
 * - the answer time of a 32,000-component `cwd` and of a 4 MiB `runId` (400 expected), and RSS after them;
 * - a 250-character lower-case `threadId` runs normally (its state file stem is hashed);
 * - RSS of `node dist/main.js` at start, its peak during N hostile bodies (default 100,000) from 10 concurrent
 *   clients on all four surfaces (support/hostile-requests.ts), and after idling (90 s by default); with
 *   FUZZ_FORCE_GC=1 the V8 heap used after a forced full GC at start and at the end;
 * - each figure against its target (support/fuzz-targets.ts), met or not.
 * The kernel is the scripted one in its own process, as in production, so the gateway's RSS is its own;
 * FUZZ_AS_NPM_START=1 measures the service as `npm start` runs it instead: the demo build (`dist/demo-kernel/
 * demo-main.js`, IAC_CODE_AGUI_UPSTREAM=demo) with the embedded demo kernel in the same process.
 * A measurement to quote, not a test: `npm run fuzz:memory -- [count] [concurrency] [seed]`; FUZZ_IDLE_SECONDS sets
 * the idle time. The service starts as shipped: the image's NODE_OPTIONS, and without an LD_PRELOAD allocator the
 * glibc settings of `npm start` (GLIBC_MALLOC_ENV), and `--expose-gc` on its command line (so the memory reclaimer
 * runs); FUZZ_NODE_DEFAULTS=1 starts it with none of them (a library host's process as Node and glibc start it, no
 * reclaimer unless FUZZ_FORCE_GC=1 exposes gc). IAC_CODE_AGUI_THREAD_CACHE_BYTES, IAC_CODE_AGUI_BODY_BUDGET_BYTES, NODE_OPTIONS, LD_PRELOAD (another allocator, e.g. the image's
 * jemalloc, with its MALLOC_CONF) and glibc's MALLOC_ARENA_MAX, MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_
 * are passed to the service when set. At start, after the fuzzing and after the idle time it prints where the RSS is
 * (support/memory-breakdown.ts); FUZZ_FORCE_GC=1 then also runs a full GC in the service (support/gc-on-signal.cjs)
 * and prints it once more, to tell a heap V8 has not collected yet from one still referenced. FUZZ_RECLAIMER_LOG=1
 * runs the service at `debug` and prints the memory reclaimer's collections (reason, heap, pause) as they happen.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WebSocket } from 'ws';
import { findFreeLoopbackPort } from '../src/a2a/managed/free-loopback-port';
import { startKernelUpstream } from '../test/support/start-kernel-upstream';
import { mulberry32 } from '../test/support/mulberry32';
import { HostileRequests, type HostileRequest } from './support/hostile-requests';
import { GLIBC_MALLOC_ENV, IMAGE_NODE_OPTIONS, snapshotGatewayBuild } from './support/bench-processes';
import { formatBreakdown, memoryBreakdown, type MemoryBreakdown } from './support/memory-breakdown';
import { fuzzMemoryVerdicts } from './support/fuzz-targets';

const REPO_ROOT = path.join(__dirname, '..');
const COUNT = Number(process.argv[2] ?? 100_000);
const CONCURRENCY = Number(process.argv[3] ?? 10);
const SEED = Number(process.argv[4] ?? 7);
/** How long the service is left idle after the fuzzing, with RSS read every IDLE_SAMPLE_MS. */
const IDLE_MS = Number(process.env.FUZZ_IDLE_SECONDS ?? 90) * 1000;
const IDLE_SAMPLE_MS = 10_000;

/** Settings of the service's process (not of the gateway) a run may vary; passed on only when set. */
const PASSED_THROUGH = [
  'IAC_CODE_AGUI_THREAD_CACHE_BYTES',
  'IAC_CODE_AGUI_BODY_BUDGET_BYTES',
  'MALLOC_ARENA_MAX',
  'MALLOC_TRIM_THRESHOLD_',
  'MALLOC_MMAP_THRESHOLD_',
  'LD_PRELOAD',
  'MALLOC_CONF',
];

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'agui-fuzz-mem-root-'));
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-fuzz-mem-state-'));
  // A copy of the build, so a concurrent `nest build` cannot delete a file the service loads on first use.
  const buildRoot = mkdtempSync(path.join(os.tmpdir(), 'agui-fuzz-mem-build-'));
  const buildDir = await snapshotGatewayBuild(buildRoot);
  // NODE_OPTIONS is the service's alone: the scripted kernel, started without it, would inherit a heap limit
  // meant for the service and end mid-run (later runs then A2A_UNAVAILABLE).
  const shipped = process.env.FUZZ_NODE_DEFAULTS !== '1';
  const serviceNodeOptions = process.env.NODE_OPTIONS ?? (shipped ? IMAGE_NODE_OPTIONS : undefined);
  delete process.env.NODE_OPTIONS;
  const asNpmStart = process.env.FUZZ_AS_NPM_START === '1';
  if (asNpmStart) buildDemoInto(buildDir);
  // It keeps the most recent 1,000 tasks and no journal: a kernel keeping all would outgrow the machine.
  const kernel = asNpmStart ? undefined : await startKernelUpstream({ maxTasks: 1000, journal: false });
  const port = await findFreeLoopbackPort();
  const url = `http://127.0.0.1:${port}/`;
  const forceGc = process.env.FUZZ_FORCE_GC === '1';
  const showReclaimer = process.env.FUZZ_RECLAIMER_LOG === '1';
  // The shipped start commands (npm start, the image) give --expose-gc, which turns the memory reclaimer on.
  const gcFlags = [
    ...(shipped || forceGc ? ['--expose-gc'] : []),
    ...(forceGc ? ['--require', path.join(__dirname, 'support/gc-on-signal.cjs')] : []),
  ];
  const entry = asNpmStart ? 'dist/demo-kernel/demo-main.js' : 'dist/main.js';
  const child = spawn(path.join(REPO_ROOT, 'node_modules/.bin/node'), [...gcFlags, entry], {
    cwd: buildDir,
    env: {
      PATH: process.env.PATH,
      HOME: os.homedir(),
      ...(kernel ? { IAC_CODE_AGUI_A2A_URL: kernel.url } : { IAC_CODE_AGUI_UPSTREAM: 'demo' }),
      IAC_CODE_AGUI_PORT: String(port),
      IAC_CODE_AGUI_STATE_DIR: stateDir,
      IAC_CODE_AGUI_ALLOWED_CWDS: root,
      IAC_CODE_AGUI_LOG_LEVEL: showReclaimer ? 'debug' : 'warn',
      IAC_CODE_AGUI_LOG_FORMAT: 'json',
      ...(shipped && !process.env.LD_PRELOAD ? GLIBC_MALLOC_ENV : {}),
      ...(serviceNodeOptions !== undefined ? { NODE_OPTIONS: serviceNodeOptions } : {}),
      ...Object.fromEntries(
        PASSED_THROUGH.filter((name) => process.env[name]).map((name) => [name, process.env[name]]),
      ),
    },
    stdio: ['ignore', showReclaimer ? 'pipe' : 'ignore', 'inherit'],
  });
  if (showReclaimer) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.includes('"memory reclaimed"')) return;
      const {
        reason,
        heapUsedMbBefore,
        heapUsedMbAfter,
        heapCommittedMbBefore,
        heapCommittedMbAfter,
        pauseMs,
      } = JSON.parse(line) as Record<string, number | string>;
      console.log(
        `  reclaimer (${reason}): heap used ${heapUsedMbBefore} → ${heapUsedMbAfter} MB, committed ${heapCommittedMbBefore} → ${heapCommittedMbAfter} MB, pause ${pauseMs} ms`,
      );
    });
  }
  try {
    for (;;) {
      const status = await fetch(`${url}ping`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const post = async (body: string | Buffer, contentType = 'application/json', route = '') => {
      const started = performance.now();
      const response = await fetch(`${url}${route}`, {
        method: 'POST',
        headers: { 'content-type': contentType, accept: 'text/event-stream' },
        body,
      });
      const text = await response.text();
      return { status: response.status, text, ms: performance.now() - started };
    };
    const envelope = (fields: { threadId?: string; runId?: string; cwd?: string }) =>
      JSON.stringify({
        threadId: fields.threadId ?? 'thread-1',
        runId: fields.runId ?? 'run-1',
        messages: [{ id: 'm1', role: 'user', content: 'hello' }],
        forwardedProps: { iacCode: { schemaVersion: 1, rosInvocationId: 'inv-1', cwd: fields.cwd ?? root } },
      });
    console.log(
      `service: ${entry}, NODE_OPTIONS=${serviceNodeOptions ?? '(none)'}, allocator ${process.env.LD_PRELOAD ? `LD_PRELOAD=${process.env.LD_PRELOAD}` : shipped ? 'glibc with GLIBC_MALLOC_ENV' : "glibc's defaults"}`,
    );
    const atStart = rssMb(child.pid!);
    console.log(`RSS at start: ${atStart.toFixed(1)} MB`);
    const breakdown = async (when: string) => {
      const read = await memoryBreakdown(child.pid!, url);
      console.log(`  ${when}: ${formatBreakdown(read)}`);
      return read;
    };
    await breakdown('at start');
    const collectedBreakdown = async (when: string) => {
      child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 5000));
      return breakdown(when);
    };
    // What a fresh process holds referenced: the heap target's base.
    const fresh = forceGc ? await collectedBreakdown('at start, after a forced full GC') : undefined;

    const timings = async (name: string, body: string, times: number) => {
      const results = [];
      for (let i = 0; i < times; i++) results.push(await post(body));
      const ms = results.map((r) => r.ms).sort((a, b) => a - b);
      const statuses = [...new Set(results.map((r) => r.status))].join(',');
      console.log(
        `${name}: status ${statuses}, median ${ms[Math.floor(times / 2)].toFixed(1)} ms, max ${ms.at(-1)!.toFixed(1)} ms (${times} requests)`,
      );
    };
    await timings('32,000-component cwd', envelope({ cwd: `${root}/${'c/'.repeat(32_000)}` }), 20);
    await timings('4 MiB runId', envelope({ runId: 'r'.repeat(4 * 1024 * 1024) }), 20);
    console.log(`created under the workspace root: ${readdirSync(root).length} entries`);
    console.log(`RSS after the hostile requests: ${rssMb(child.pid!).toFixed(1)} MB`);

    const long = await post(envelope({ threadId: 'a'.repeat(250), runId: 'long-thread-run' }));
    const lastEvent = long.text.trim().split('\n\n').at(-1) ?? '';
    console.log(
      `250-character threadId: status ${long.status}, last event ${/"type":"(\w+)"/.exec(lastEvent)?.[1]}, ` +
        `state files ${readdirSync(path.join(stateDir, 'threads')).join(', ')}`,
    );

    const statuses = new Map<string, number>();
    const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
    let sent = 0;
    /** One client: its requests one after another, its /ws messages on a socket of its own. */
    const worker = async (client: number) => {
      const requests = new HostileRequests(mulberry32(SEED * 1_000_003 + client), root, client);
      let socket: WebSocket | undefined;
      const overWs = async (request: HostileRequest): Promise<string> => {
        if (!socket || socket.readyState !== WebSocket.OPEN) {
          const opening = new WebSocket(`${url.replace(/^http/, 'ws')}ws`);
          await new Promise<void>((resolve, reject) => {
            opening.once('open', () => resolve());
            opening.once('error', reject);
          });
          socket = opening;
        }
        const open = socket;
        return new Promise<string>((resolve) => {
          const onMessage = (data: Buffer) => {
            const text = data.toString('utf8');
            const type = /"type":"(RUN_FINISHED|RUN_ERROR)"/.exec(text)?.[1];
            // A RUN_ERROR is counted by its code: a setting that changes what the runs answer shows.
            const code = type === 'RUN_ERROR' ? ` ${/"code":"(\w+)"/.exec(text)?.[1] ?? '?'}` : '';
            if (type) done(`ws ${type}${code}`);
          };
          const onClose = (code: number) => done(`ws close ${code}`);
          const done = (outcome: string) => {
            open.off('message', onMessage);
            open.off('close', onClose);
            resolve(outcome);
          };
          open.on('message', onMessage);
          open.on('close', onClose);
          open.send(request.body, { binary: false }, (error) => (error ? done('ws send failed') : undefined));
        });
      };
      while (sent < COUNT) {
        sent++;
        const request = requests.next();
        const outcome =
          request.surface === 'ws'
            ? await overWs(request).catch(() => 'ws failed')
            : await post(
                request.body,
                'application/json',
                request.surface === 'invocations'
                  ? 'invocations'
                  : request.surface === 'cancel'
                    ? `extensions/iac-code/v1/executions/exec-${sent}/cancel`
                    : '',
              ).then(
                ({ status }) => `${request.surface} ${status}`,
                () => `${request.surface} failed`,
              );
        count(outcome);
      }
      socket?.close();
    };
    const fuzzStarted = performance.now();
    let peak = 0;
    // Where the RSS is at its highest sample: what bounds the peak, by kind (read again at each new high).
    let atPeak: MemoryBreakdown | undefined;
    let isReading = false;
    const sampler = setInterval(() => {
      const now = rssMb(child.pid!);
      if (now <= peak) return;
      peak = now;
      if (isReading) return;
      isReading = true;
      void memoryBreakdown(child.pid!, url)
        .then((read) => (atPeak = read.rssMb >= (atPeak?.rssMb ?? 0) ? read : atPeak))
        .finally(() => (isReading = false));
    }, 1000);
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => worker(i + 1)));
    clearInterval(sampler);
    if (atPeak) console.log(`  at the peak: ${formatBreakdown(atPeak)}`);
    // The breakdown reads the RSS again a moment after the sample that started it, and may find it higher.
    peak = Math.max(peak, atPeak?.rssMb ?? 0);
    const afterFuzz = rssMb(child.pid!);
    console.log(
      `${sent} hostile bodies from ${CONCURRENCY} clients (seed ${SEED}) in ${((performance.now() - fuzzStarted) / 1000).toFixed(0)} s, statuses ` +
        `${JSON.stringify(Object.fromEntries([...statuses].sort()))}; RSS peak ${peak.toFixed(1)} MB, right after ${afterFuzz.toFixed(1)} MB`,
    );
    await breakdown('right after');
    for (let waited = 0; waited < IDLE_MS; waited += IDLE_SAMPLE_MS) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
      console.log(`  idle ${(waited + IDLE_SAMPLE_MS) / 1000} s: RSS ${rssMb(child.pid!).toFixed(1)} MB`);
    }
    const idle = rssMb(child.pid!);
    console.log(
      `RSS after ${IDLE_MS / 1000} s idle: ${idle.toFixed(1)} MB (${(idle - atStart).toFixed(1)} MB over start)`,
    );
    await breakdown('after idling');
    const end = fresh ? await collectedBreakdown('after a forced full GC') : undefined;
    const verdicts = fuzzMemoryVerdicts({
      startMb: atStart,
      peakMb: peak,
      idleMb: idle,
      heapUsedAfterGcMb: fresh && end ? { fresh: fresh.heapUsedMb, end: end.heapUsedMb } : undefined,
    });
    console.log('targets (docs/benchmarks.md):');
    for (const { target, measured, met } of verdicts)
      console.log(`  ${met ? 'met' : 'NOT MET'}: ${target}: ${measured}`);
  } finally {
    child.kill('SIGTERM');
    await kernel?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(buildRoot, { recursive: true, force: true });
  }
}

/** `npm run build:demo` into the snapshot: the demo entry point and its kernel next to the production build. */
function buildDemoInto(buildDir: string): void {
  const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.demo.json', '--outDir', path.join(buildDir, 'dist')], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
