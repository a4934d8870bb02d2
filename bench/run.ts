import { existsSync } from 'node:fs';
/**
 * `npm run bench` : builds, then measures the gateway against a pre-encoded kernel-like upstream,
 * a pass-through proxy and direct, side by side in one run; prints a table and writes
 * `bench/results/<ISO date>.json` and the side-by-side chart `bench/results/<ISO date>.svg`. Options: `--quick`
 * (smaller sizes, about a minute), `--profile` (only a CPU profile of the gateway over one throughput burst and
 * over 300 sequential short runs, summarised), `--scale` (only the curve of 1 to 10,000 open runs, file store,
 * Redis and the original; run it under `ulimit -n 65536`), `--no-write`.
 * Method and analysis: docs/benchmarks.md.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchOptions, type BenchOptions } from './bench-options';
import { benchChartSvg } from './report/bench-chart';
import { checkTargets, headlineOf, type BenchResult } from './report/bench-result';
import { formatProfile } from './report/format-profile';
import { formatReport } from './report/format-report';
import { readMachineFacts } from './report/machine-facts';
import { MachineLoadMeter } from './support/machine-load';
import type { BenchRig } from './scenarios/bench-rig';
import { measureColdStart } from './scenarios/cold-start';
import { measureFirstEvent } from './scenarios/first-event';
import { measureOpenRuns } from './scenarios/open-runs';
import { measurePacedLatency } from './scenarios/paced-latency';
import { measurePacedRuns } from './scenarios/paced-runs';
import { measureReattachCost } from './scenarios/reattach-cost';
import { PROFILED_SHORT_RUNS, profileGateway } from './scenarios/profile-gateway';
import { measureStateLatency } from './scenarios/state-latency';
import { measureRedisStateLatency } from './scenarios/state-latency-redis';
import { measureThroughput } from './scenarios/throughput';
import { measureScale, openFileLimit, type ScaleRelay } from './scenarios/scale';
import { formatScaleTable, scaleChartSvg } from './report/scale-report';
import { startRedisServer } from '../test/support/redis-server';
import {
  REPO_ROOT,
  snapshotGatewayBuild,
  startClient,
  startGateway,
  startProxy,
  startUpstream,
  type GatewayOptions,
} from './support/bench-processes';
import { ensureOriginalAdapter, startOriginal } from './support/original-adapter';

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function runScenarios(options: BenchOptions, workDir: string): Promise<void> {
  const sizes = options.sizes;
  const machine = readMachineFacts();
  const machineLoad = new MachineLoadMeter(machine.cores);
  const cwd = join(workDir, 'workspace');
  await mkdir(cwd);
  const buildDir = await snapshotGatewayBuild(workDir);
  const upstream = await startUpstream();
  const proxy = await startProxy(upstream.url);
  const client = startClient();
  const gatewayOptions = (name: string, heartbeatSeconds?: number): GatewayOptions => ({
    buildDir,
    upstreamUrl: upstream.url,
    stateDir: join(workDir, `state-${name}`),
    allowedCwd: cwd,
    heartbeatSeconds,
  });
  const stops = [client.stop, proxy.stop, upstream.stop];
  try {
    if (options.profile) {
      log(
        `profiling the gateway over a burst of ${sizes.throughputDeltas} deltas, then ${PROFILED_SHORT_RUNS} short runs`,
      );
      const profileDir = join(
        REPO_ROOT,
        'bench/results/profiles',
        new Date().toISOString().replace(/:/g, '-'),
      );
      await mkdir(profileDir, { recursive: true });
      const profile = await profileGateway(
        { client, upstream, proxy, cwd, sizes },
        gatewayOptions('profile'),
        profileDir,
      );
      await writeFile(join(profileDir, 'summary.json'), `${JSON.stringify(profile, null, 2)}\n`);
      process.stdout.write(`\n${formatProfile(profile)}\n`);
      return;
    }
    if (options.scale) {
      await runScale(options, { client, upstream, cwd, gatewayOptions, workDir }, stops);
      return;
    }
    log(`state store latency (${sizes.stateThreads} threads)`);
    const fileState = await measureStateLatency(sizes.stateThreads, workDir);
    // The Redis figures need a local redis-server (.ci/run installs it); without one the file store's stand alone.
    const hasRedisServer = existsSync(process.env.REDIS_SERVER ?? '/usr/bin/redis-server');
    log(
      hasRedisServer
        ? `state store latency on Redis (${sizes.stateThreads} threads)`
        : 'state store latency on Redis: skipped, no redis-server (apt-get install redis-server)',
    );
    const state = hasRedisServer
      ? { ...fileState, redis: await measureRedisStateLatency(sizes.stateThreads) }
      : fileState;
    const originalExecutable = ensureOriginalAdapter(log);
    if (!originalExecutable) log('the Python original: skipped, no python3 on PATH');
    const originalOptions = (name: string) => ({
      executable: originalExecutable!,
      upstreamUrl: upstream.url,
      workDir: join(workDir, `original-${name}`),
    });
    log(`cold start (${sizes.coldStarts} starts${originalExecutable ? ' each, ours and the original' : ''})`);
    const coldStart = await measureColdStart(sizes.coldStarts, () => startGateway(gatewayOptions('cold')));
    const originalColdStart = originalExecutable
      ? await measureColdStart(sizes.coldStarts, () => startOriginal(originalOptions('cold')))
      : undefined;
    const gateway = await startGateway(gatewayOptions('main'));
    stops.unshift(gateway.stop);
    const original = originalExecutable ? await startOriginal(originalOptions('main')) : undefined;
    if (original) stops.unshift(original.stop);
    const rig: BenchRig = { client, upstream, proxy, gateway, original, cwd, sizes };
    log(`time to first event (${sizes.firstEventRuns} runs per path)`);
    const firstEvent = await measureFirstEvent(rig);
    log(`cost per event (${sizes.throughputDeltas} deltas × ${sizes.throughputRepeats} per path)`);
    const throughput = await measureThroughput(rig);
    log(`added latency (${sizes.latencyDeltas} deltas at ${sizes.latencyPerSecond}/s per path)`);
    const pacedLatency = await measurePacedLatency(rig);
    log(
      `paced runs (${sizes.pacedRuns} × ${sizes.pacedDeltas} deltas every ${sizes.pacedIntervalMs} ms per path)`,
    );
    const pacedRuns = await measurePacedRuns(rig);
    log(
      `reattach cost (${sizes.throughputDeltas} deltas with and without a window; ${sizes.detachedRuns} detached runs)`,
    );
    const windowGateway = await startGateway({
      ...gatewayOptions('reattach'),
      env: { IAC_CODE_AGUI_REATTACH_SECONDS: '30', IAC_CODE_AGUI_DRAIN_SECONDS: '1' },
    });
    stops.unshift(windowGateway.stop);
    const reattach = await measureReattachCost(rig, windowGateway, sizes.detachedRuns);
    await windowGateway.stop();
    await gateway.stop();
    log(`open runs (${sizes.openRuns}, heartbeat every ${sizes.openHeartbeatSeconds} s)`);
    const openGateway = await startGateway(gatewayOptions('open', sizes.openHeartbeatSeconds));
    stops.unshift(openGateway.stop);
    const openRuns = await measureOpenRuns(rig, openGateway, sizes.openHeartbeatSeconds);
    await openGateway.stop();
    let originalOpenRuns;
    if (original) {
      await original.stop();
      log(`open runs on the original (${sizes.openRuns}, its fixed heartbeat every 15 s)`);
      const openOriginal = await startOriginal(originalOptions('open'));
      stops.unshift(openOriginal.stop);
      originalOpenRuns = await measureOpenRuns(rig, openOriginal, 15);
      await openOriginal.stop();
    }
    const details = {
      throughput,
      pacedLatency,
      firstEvent,
      openRuns,
      pacedRuns,
      reattach,
      coldStart,
      state,
      ...(originalColdStart ? { originalColdStart } : {}),
      ...(originalOpenRuns ? { originalOpenRuns } : {}),
    };
    const headline = headlineOf(details);
    const result: BenchResult = {
      date: new Date().toISOString(),
      command: `npm run bench${options.mode === 'quick' ? ' -- --quick' : ''}`,
      mode: options.mode,
      machine: {
        ...machine,
        loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
        busyCoresDuringRun: machineLoad.busyCores(),
      },
      ...headline,
      targets: checkTargets(headline, details),
      details,
    };
    process.stdout.write(`\n${formatReport(result)}\n`);
    if (options.write) {
      const base = join(REPO_ROOT, 'bench/results', result.date.replace(/:/g, '-'));
      await writeFile(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
      await writeFile(`${base}.svg`, benchChartSvg(result));
      process.stdout.write(`\nwritten ${base}.json and ${base}.svg\n`);
    }
  } finally {
    for (const stop of stops) await stop();
  }
}

/** `--scale`: the curve of bench/scenarios/scale.ts, its table and chart (docs/benchmarks.md#scale). */
async function runScale(
  options: BenchOptions,
  parts: {
    client: ReturnType<typeof startClient>;
    upstream: Awaited<ReturnType<typeof startUpstream>>;
    cwd: string;
    gatewayOptions: (name: string, heartbeatSeconds?: number) => GatewayOptions;
    workDir: string;
  },
  stops: (() => Promise<void>)[],
): Promise<void> {
  const { client, upstream, cwd, gatewayOptions, workDir } = parts;
  log(`open-file limit (ulimit -n): ${openFileLimit()}`);
  const hasRedisServer = existsSync(process.env.REDIS_SERVER ?? '/usr/bin/redis-server');
  const redis = hasRedisServer ? await startRedisServer() : undefined;
  if (redis) stops.unshift(redis.close);
  else log('scale on Redis: skipped, no redis-server');
  const originalExecutable = ensureOriginalAdapter(log);
  const relays: ScaleRelay[] = [
    'file',
    ...(redis ? ['redis' as const] : []),
    ...(originalExecutable ? ['original' as const] : []),
  ];
  let started = 0;
  const points = await measureScale(
    {
      client,
      upstream,
      cwd,
      startRelay: (relay, heartbeatSeconds) => {
        started += 1;
        if (relay === 'original')
          return startOriginal({
            executable: originalExecutable!,
            upstreamUrl: upstream.url,
            workDir: join(workDir, `original-scale-${started}`),
          });
        return startGateway({
          ...gatewayOptions(`scale-${started}`, heartbeatSeconds),
          ...(relay === 'redis'
            ? { env: { IAC_CODE_AGUI_STATE_STORE: 'redis', IAC_CODE_AGUI_REDIS_URL: redis!.url } }
            : {}),
        });
      },
    },
    relays,
    log,
  );
  const machine = readMachineFacts();
  const result = {
    date: new Date().toISOString(),
    command: 'npm run bench -- --scale',
    machine: { ...machine, loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100) },
    openFileLimit: openFileLimit(),
    points,
  };
  process.stdout.write(`\n${formatScaleTable(points)}\n`);
  if (options.write) {
    const base = join(REPO_ROOT, 'bench/results', `${result.date.replace(/:/g, '-')}-scale`);
    await writeFile(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
    await writeFile(`${base}.svg`, scaleChartSvg(points));
    process.stdout.write(`\nwritten ${base}.json and ${base}.svg\n`);
  }
}

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  const workDir = await mkdtemp(join(tmpdir(), 'agui-bench-'));
  try {
    await runScenarios(options, workDir);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
