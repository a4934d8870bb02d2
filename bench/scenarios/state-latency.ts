import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { canonicalDigest } from '../../src/wire/canonical-digest';
import { decideAdmission, type AdmissionRequest } from '../../src/threads/decide-admission';
import { FileThreadStore } from '../../src/threads/file-thread-store';
import type { ThreadState } from '../../src/threads/thread-state';
import { latencyFigures, type LatencyFigures } from './paced-latency';
import type { RedisStateLatencyResult } from './state-latency-redis';

export interface StateTurnFigures {
  /** Loading the thread's file (second turn only). */
  readonly load?: LatencyFigures;
  /** Canonical digest of the body + the pure admission decision. */
  readonly admission: LatencyFigures;
  /** Atomic write: temp file, fsync, rename, directory fsync. */
  readonly write: LatencyFigures;
}

export interface StateLatencyResult {
  readonly store: 'file';
  readonly threads: number;
  readonly firstTurn: StateTurnFigures;
  readonly secondTurn: StateTurnFigures;
  /** Every write of both turns. */
  readonly write: LatencyFigures;
  /** The Redis store beside it (`state-latency-redis.ts`); null when it was not measured. */
  readonly redis: RedisStateLatencyResult | null;
}

function runBody(threadId: string, runId: string): string {
  return JSON.stringify({
    threadId,
    runId,
    state: {},
    tools: [],
    context: [],
    messages: [
      { id: `m-${runId}`, role: 'user', content: 'Create an OSS bucket in cn-hangzhou, 费用最低 😀' },
    ],
    forwardedProps: {
      iacCode: { schemaVersion: 1, rosInvocationId: `inv-${runId}`, cwd: '/srv/ws', temperature: 0.7 },
    },
  });
}

type Samples = { load: number[]; admission: number[]; write: number[] };

/** One turn of one thread: load (second turn), digest + decideAdmission, save — each timed apart. */
async function turn(
  store: FileThreadStore,
  threadId: string,
  runId: string,
  isFirst: boolean,
  samples: Samples,
) {
  const started = performance.now();
  const state: ThreadState | undefined = isFirst ? undefined : await store.load(threadId);
  const loaded = performance.now();
  const request: AdmissionRequest = {
    threadId,
    runId,
    digest: canonicalDigest(runBody(threadId, runId)),
    cwd: '/srv/ws',
    userId: null,
    rosInvocationId: `inv-${runId}`,
    isResume: false,
    isThreadBusy: false,
    newExecutionId: randomUUID(),
  };
  const decision = decideAdmission(state, request, Date.now());
  const decided = performance.now();
  if (decision.kind !== 'admitted') throw new Error(`${threadId}: ${decision.code}`);
  await store.save(decision.state);
  const saved = performance.now();
  if (!isFirst) samples.load.push((loaded - started) * 1000);
  samples.admission.push((decided - loaded) * 1000);
  samples.write.push((saved - decided) * 1000);
}

/**
 * State: admission and state-write latency of the file store on a temp dir
 * beside the other bench files, for `threads` threads: a first turn (new binding) then a second (load +
 * rotation). In-process: the store is a library, and the bench processes are idle meanwhile.
 */
export async function measureStateLatency(threads: number, workDir: string): Promise<StateLatencyResult> {
  const stateDir = await mkdtemp(join(workDir, 'state-'));
  const store = new FileThreadStore(stateDir);
  try {
    const turns: Samples[] = [];
    for (const isFirst of [true, false]) {
      const samples: Samples = { load: [], admission: [], write: [] };
      for (let index = 0; index < threads; index++) {
        await turn(store, `thread-${index}`, isFirst ? 'run-1' : 'run-2', isFirst, samples);
      }
      turns.push(samples);
    }
    const [first, second] = turns;
    return {
      store: 'file',
      threads,
      firstTurn: { admission: latencyFigures(first.admission), write: latencyFigures(first.write) },
      secondTurn: {
        load: latencyFigures(second.load),
        admission: latencyFigures(second.admission),
        write: latencyFigures(second.write),
      },
      write: latencyFigures([...first.write, ...second.write]),
      redis: null,
    };
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}
