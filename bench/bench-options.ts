/** How big each scenario is: the full run fits a 2-core machine in a few minutes; `--quick` in about one. */
export interface BenchSizes {
  readonly throughputDeltas: number;
  /** Measured burst runs per path (the median is quoted). */
  readonly throughputRepeats: number;
  readonly latencyPerSecond: number;
  readonly latencyDeltas: number;
  readonly firstEventRuns: number;
  readonly openRuns: number;
  readonly openHoldSeconds: number;
  readonly openHeartbeatSeconds: number;
  readonly pacedRuns: number;
  readonly pacedIntervalMs: number;
  readonly pacedDeltas: number;
  readonly coldStarts: number;
  readonly stateThreads: number;
  /** Runs detached at once for the memory of a detached run. */
  readonly detachedRuns: number;
}

export interface BenchOptions {
  readonly mode: 'full' | 'quick';
  readonly sizes: BenchSizes;
  /** Profile the gateway (`--cpu-prof`) over one throughput run and over short runs; summarise the hot spots. */
  readonly profile: boolean;
  /** Only the scale curve (bench/scenarios/scale.ts): 1 to 10,000 open runs per relay. */
  readonly scale: boolean;
  /** Write `bench/results/<date>.json` (off with `--no-write`). */
  readonly write: boolean;
}

const FULL: BenchSizes = {
  throughputDeltas: 100_000,
  throughputRepeats: 3,
  latencyPerSecond: 1000,
  latencyDeltas: 5000,
  firstEventRuns: 50,
  openRuns: 1000,
  openHoldSeconds: 3,
  openHeartbeatSeconds: 1,
  pacedRuns: 200,
  pacedIntervalMs: 50,
  pacedDeltas: 100,
  coldStarts: 5,
  stateThreads: 1000,
  detachedRuns: 200,
};

const QUICK: BenchSizes = {
  ...FULL,
  throughputDeltas: 20_000,
  throughputRepeats: 1,
  latencyDeltas: 2000,
  firstEventRuns: 20,
  openRuns: 200,
  openHoldSeconds: 2,
  pacedRuns: 50,
  pacedDeltas: 40,
  coldStarts: 2,
  stateThreads: 200,
  detachedRuns: 50,
};

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const unknown = argv.filter((arg) => !['--quick', '--profile', '--scale', '--no-write'].includes(arg));
  if (unknown.length > 0) throw new Error(`unknown bench option(s): ${unknown.join(' ')}`);
  const quick = argv.includes('--quick');
  return {
    mode: quick ? 'quick' : 'full',
    sizes: quick ? QUICK : FULL,
    profile: argv.includes('--profile'),
    scale: argv.includes('--scale'),
    write: !argv.includes('--no-write'),
  };
}
