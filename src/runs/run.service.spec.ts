import { statusFrame } from '../demo-kernel/kernel-frames';
import { ActivityTracker } from '../common/activity-tracker';
import { ServiceLifecycle } from '../common/service-lifecycle';
import { loadConfig, type HostFacts } from '../config/load-config';
import { MessageCatalogue } from '../i18n/message-catalogue';
import { ResponseValidator } from '../interrupts/response-validator';
import { RunMetrics } from '../metrics/run-metrics';
import { RunTelemetry } from '../metrics/run-telemetry';
import { RunLogRegistry } from '../run-log/run-log-registry';
import { ThreadAdmissionService } from '../threads/thread-admission.service';
import { ThreadRegistry } from '../threads/thread-registry';
import { NoopRunTracer } from '../tracing/noop-run-tracer';
import { deferred, type Deferred } from '../../test/support/deferred';
import {
  THREAD,
  admitEngineRun,
  allowOnce,
  freshThread,
  kernelIds,
  parkedAt,
  shellPermission,
} from '../../test/support/engine-run';
import { DrivenA2aGateway } from '../../test/support/fakes/driven-a2a-gateway';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { FakeThreadCluster } from '../../test/support/fakes/fake-thread-cluster';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { RecordingSink } from '../../test/support/fakes/recording-sink';
import type { AdmittedRun } from './admitted-run';
import { RunAdmission } from './run-admission';
import type { RunOutcomeReport } from './run-event-hook';
import { RunEventHooks } from './run-event-hooks';
import { RunService } from './run.service';

const HOST: HostFacts = { cwd: '/srv', homeDir: '/home/u', tmpDir: '/tmp', pathDelimiter: ':', isTty: false };

/** The cluster as one replica reaches it: while it is cut off from Redis, its lease renewals fail. */
class PartitionableCluster extends FakeThreadCluster {
  isCutOff = false;

  override renewLease(threadId: string, leaseToken: string): Promise<boolean> {
    if (this.isCutOff) return Promise.reject(new Error('Connection is closed.'));
    return super.renewLease(threadId, leaseToken);
  }
}

/**
 * A RunService as the runs module wires it, over a cluster registry and a driven kernel; `stream` returns the
 * run's outcome as a run event hook hears it (the end of its stream, whatever the client saw).
 */
async function clusterRunService() {
  const cluster = new PartitionableCluster();
  await cluster.write(freshThread(), 0);
  const store = new InMemoryThreadStore();
  const registry = new ThreadRegistry(store, cluster, null, { threadCacheSize: 8 });
  const gateway = new DrivenA2aGateway();
  const clock = new FakeClock();
  const config = loadConfig({}, HOST);
  const metrics = new RunMetrics();
  const lifecycle = new ServiceLifecycle();
  const activity = new ActivityTracker(clock);
  const ends = new Map<string, Deferred<RunOutcomeReport>>();
  const hooks = new RunEventHooks(
    [{ onRunEnd: (report, run) => ends.get(run.runId)?.resolve(report) }],
    clock,
  );
  const admission = new RunAdmission(
    gateway,
    clock,
    config,
    new ThreadAdmissionService(registry, clock),
    registry,
    lifecycle,
    metrics,
    activity,
  );
  const service = new RunService(
    gateway,
    clock,
    config,
    new MessageCatalogue(),
    admission,
    lifecycle,
    new ResponseValidator(),
    new RunTelemetry(metrics, new NoopRunTracer(), clock),
    activity,
    hooks,
    new RunLogRegistry(config),
    [],
  );
  const stream = (run: AdmittedRun) => {
    const ended = deferred<RunOutcomeReport>();
    ends.set(run.runId, ended);
    const sink = new RecordingSink();
    const leave = service.stream(run, sink);
    return { sink, leave, ended: ended.promise };
  };
  return { cluster, store, registry, gateway, clock, stream };
}

/**
 * This replica is cut off from Redis for longer than the lease's TTL: its renewals fail, the lease expires and
 * another replica claims the thread. Then Redis answers again — and nothing has told the run yet.
 */
function loseTheLeaseUnnoticed(cluster: PartitionableCluster): void {
  cluster.isCutOff = true;
  jest.advanceTimersByTime(cluster.leaseTtlMs);
  cluster.dropLease(THREAD);
  cluster.takeLease(THREAD);
  cluster.isCutOff = false;
}

/**
 * The lease seam as RunService wires it (docs/behaviour/state.md#the-run-lease): every kernel call that
 * changes a task asks the lease first, so a run whose thread another replica took sends none. Each case
 * fails if RunService hands its runs the gateway without leaseGuardedGateway.
 */
describe('RunService: no kernel side effect without the lease', () => {
  // Fake timers move the lease's clock (performance.now) and its renewals; the run's own turns are real.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('opens no SendStreamingMessage for a new turn whose lease was lost, and ends THREAD_TAKEN_OVER', async () => {
    const { cluster, registry, gateway, stream } = await clusterRunService();
    const { run } = await admitEngineRun(registry, 'run-1');
    loseTheLeaseUnnoticed(cluster);
    const { sink, ended } = stream(run);
    // Either the run ends, or the kernel got the turn (an open stream that would never end on its own).
    const first = await Promise.race([
      ended.then(() => 'run ended'),
      gateway.stream().then(() => 'turn sent'),
    ]);
    expect(first).toBe('run ended');
    expect(gateway.calls).toEqual([]);
    await expect(ended).resolves.toMatchObject({ outcome: 'error', errorCode: 'THREAD_TAKEN_OVER' });
    expect(sink.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'THREAD_TAKEN_OVER' });
    registry.onApplicationShutdown();
  });

  it('sends no CancelTask when the client leaves a run whose lease was lost mid-stream', async () => {
    const { cluster, registry, gateway, stream } = await clusterRunService();
    const { run, admitted } = await admitEngineRun(registry, 'run-1');
    const { sink, leave, ended } = stream(run);
    const kernel = await gateway.stream();
    kernel.push(statusFrame(kernelIds(admitted.contextId), 'TASK_STATE_WORKING'));
    await sink.written(2);
    loseTheLeaseUnnoticed(cluster);
    leave();
    await expect(ended).resolves.toMatchObject({ outcome: 'disconnected' });
    expect(gateway.calls).toEqual(['SendStreamingMessage']);
    expect(gateway.cancelledTaskIds).toEqual([]);
    registry.onApplicationShutdown();
  });

  it('sends no SendMessage answer for a resume whose lease was lost, and keeps the interrupt for the new owner', async () => {
    const { cluster, store, registry, gateway, clock, stream } = await clusterRunService();
    const parked = await parkedAt(shellPermission, { sideband: true, store, registry, gateway, clock });
    gateway.taskSnapshot = parked.waiting;
    const { run } = await admitEngineRun(registry, 'run-2', allowOnce(parked.interruptId));
    loseTheLeaseUnnoticed(cluster);
    const { ended } = stream(run);
    await expect(ended).resolves.toMatchObject({ outcome: 'error', errorCode: 'THREAD_TAKEN_OVER' });
    // Run 1's turn, then run 2's reads only: the preflight's session restore and GetTask.
    expect(gateway.calls).toEqual(['SendStreamingMessage', 'ensure-restored', 'GetTask']);
    expect(gateway.sideMessages).toEqual([]);
    expect(Object.keys((await cluster.read(THREAD)).state?.execution.pending ?? {})).toEqual([
      parked.interruptId,
    ]);
    registry.onApplicationShutdown();
  });
});
