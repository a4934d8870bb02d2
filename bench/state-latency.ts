/**
 * Admission and state-write latency for 1,000 threads on a temp dir (issue 3, item 6): for each thread
 * a first turn (new binding) and a second turn (load + rotation), each one canonical digest +
 * `decideAdmission` + `FileThreadStore.save` (fsync and directory fsync included). Prints median and
 * p99 in milliseconds. A benchmark, not a test: no assertions.
 * Run: node_modules/.bin/node --import tsx bench/state-latency.ts [threads]
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { canonicalDigest } from '../src/threads/canonical-digest';
import { decideAdmission, type AdmissionRequest } from '../src/threads/decide-admission';
import { FileThreadStore } from '../src/threads/file-thread-store';
import type { ThreadState } from '../src/threads/thread-state';

const THREAD_COUNT = Number(process.argv[2] ?? 1000);

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

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

function report(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = percentile(sorted, 0.5).toFixed(3);
  const p99 = percentile(sorted, 0.99).toFixed(3);
  console.log(
    `${label.padEnd(34)} median ${median.padStart(8)} ms   p99 ${p99.padStart(8)} ms   (n=${samples.length})`,
  );
}

async function turn(
  store: FileThreadStore,
  threadId: string,
  runId: string,
  samples: Record<string, number[]>,
) {
  const started = performance.now();
  const state: ThreadState | undefined = runId.endsWith('-1') ? undefined : await store.load(threadId);
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
  samples.load.push(loaded - started);
  samples.decide.push(decided - loaded);
  samples.save.push(saved - decided);
  samples.total.push(saved - started);
}

async function main(): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), 'agui-bench-'));
  const store = new FileThreadStore(stateDir);
  try {
    for (const [phase, runSuffix] of [
      ['first turn (new thread)', '1'],
      ['second turn (load + rotate)', '2'],
    ] as const) {
      const samples: Record<string, number[]> = { load: [], decide: [], save: [], total: [] };
      for (let index = 0; index < THREAD_COUNT; index++) {
        await turn(store, `thread-${index}`, `run-${runSuffix}`, samples);
      }
      console.log(`\n${phase}, ${THREAD_COUNT} threads, state dir ${stateDir}`);
      if (runSuffix === '2') report('load', samples.load);
      report('admission (digest + decide)', samples.decide);
      report('state write (atomic, fsync)', samples.save);
      report(runSuffix === '2' ? 'load + admission + write' : 'admission + write', samples.total);
    }
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}

void main();
