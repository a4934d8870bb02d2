import { endOfTurnFrames, statusFrame, textDeltaFrame } from '../demo-kernel/kernel-frames';
import { ThreadRegistry } from '../threads/thread-registry';
import type { ThreadState } from '../threads/thread-state';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import {
  THREAD,
  freshThread,
  kernelIds as ids,
  lastEvent as last,
  startEngineRun,
} from '../../test/support/engine-run';
import { FakeThreadCluster } from '../../test/support/fakes/fake-thread-cluster';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';

/**
 * A run whose lease is lost at any step ends with RUN_ERROR THREAD_TAKEN_OVER, never RUN_FINISHED, and sends
 * the kernel nothing more (docs/behaviour/state.md#the-run-lease): one case per step where the loss can be
 * seen. The replica "freezes" past its TTL by moving the monotonic clock the lease is measured on.
 */
describe('RunExecution when the lease is lost (docs/behaviour/state.md#the-run-lease)', () => {
  let monotonic = 0;
  beforeEach(() => {
    monotonic = 0;
    jest.spyOn(performance, 'now').mockImplementation(() => monotonic);
  });
  afterEach(() => jest.restoreAllMocks());

  /** A run over the fake cluster, its kernel behind the lease guard as RunService wires it. */
  async function clusterRun() {
    const cluster = new FakeThreadCluster();
    await cluster.write(freshThread(), 0);
    const registry = new ThreadRegistry(new InMemoryThreadStore(), cluster, null, { threadCacheSize: 8 });
    const run = await startEngineRun({ store: new InMemoryThreadStore(), registry, leaseGuarded: true });
    /** This replica stalled past its TTL and another one claimed the thread. */
    const takeOver = () => {
      cluster.dropLease(THREAD);
      cluster.takeLease(THREAD);
      monotonic += cluster.leaseTtlMs;
    };
    const isTerminalWrite = (state: ThreadState) =>
      state.terminalExecutionIds.includes(run.admitted.execution.executionId);
    const stored = async () => (await cluster.read(THREAD)).state as ThreadState;
    return { ...run, cluster, takeOver, isTerminalWrite, stored };
  }

  async function expectTakenOver(run: Awaited<ReturnType<typeof clusterRun>>): Promise<void> {
    await run.delivered;
    await expectConformantEvents(run.sink.events);
    expect(last(run.sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'THREAD_TAKEN_OVER' });
    expect(run.sink.types()).not.toContain('RUN_FINISHED');
    expect(run.gateway.cancelledTaskIds).toEqual([]);
    run.registry.onApplicationShutdown();
  }

  const answered = (contextId: string) => [
    statusFrame(ids(contextId), 'TASK_STATE_WORKING'),
    textDeltaFrame(ids(contextId), 'Hello'),
    ...endOfTurnFrames(ids(contextId), 'Hello'),
  ];

  it('before the turn is sent: the message never reaches the kernel', async () => {
    const run = await clusterRun();
    run.takeOver();
    await expectTakenOver(run);
    expect(run.gateway.streams).toHaveLength(0);
  });

  it('while it streams, when a renewal finds the lease gone: it stops reading at once', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask', 'performance'] });
    try {
      const run = await clusterRun();
      const stream = await run.gateway.stream();
      stream.push(statusFrame(ids(run.admitted.contextId), 'TASK_STATE_WORKING'));
      await run.sink.written(2);
      run.takeOver();
      jest.advanceTimersByTime(run.cluster.leaseRenewMs);
      await expectTakenOver(run);
      expect(stream.isAborted).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('at the write of a task id a frame names: nothing of that frame is announced', async () => {
    const run = await clusterRun();
    const stream = await run.gateway.stream();
    await run.sink.written(1);
    run.takeOver();
    stream.push(...answered(run.admitted.contextId));
    await expectTakenOver(run);
    expect(run.sink.types()).not.toContain('TEXT_MESSAGE_CONTENT');
    expect((await run.stored()).execution.taskId).toBeNull();
  });

  it('at the terminal write of a turn that finished: the write is fenced and the turn is not called finished', async () => {
    const run = await clusterRun();
    run.cluster.beforeWrite = (state) => {
      if (run.isTerminalWrite(state)) run.takeOver();
    };
    const stream = await run.gateway.stream();
    stream.push(...answered(run.admitted.contextId));
    stream.end();
    await expectTakenOver(run);
    expect(run.sink.types()).toContain('TEXT_MESSAGE_END');
    expect((await run.stored()).terminalExecutionIds).not.toContain(run.admitted.execution.executionId);
  });

  it('at the terminal write of a turn that failed: THREAD_TAKEN_OVER rather than the failure', async () => {
    const run = await clusterRun();
    run.cluster.beforeWrite = (state) => {
      if (run.isTerminalWrite(state)) run.takeOver();
    };
    const stream = await run.gateway.stream();
    stream.push(statusFrame(ids(run.admitted.contextId), 'TASK_STATE_WORKING'));
    await run.sink.written(2);
    stream.fail(new TypeError('terminated'));
    await run.delivered;
    expect(last(run.sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'THREAD_TAKEN_OVER' });
    run.registry.onApplicationShutdown();
  });

  it('right after the terminal write landed (frozen before the last event): the check before RUN_FINISHED sees it', async () => {
    const run = await clusterRun();
    run.cluster.afterWrite = (state) => {
      if (run.isTerminalWrite(state)) run.takeOver();
    };
    const stream = await run.gateway.stream();
    stream.push(...answered(run.admitted.contextId));
    stream.end();
    await expectTakenOver(run);
    // The write landed while the lease held: the turn is ended, and the new owner tells that story.
    expect((await run.stored()).terminalExecutionIds).toContain(run.admitted.execution.executionId);
  });

  it('a turn that keeps its lease still finishes, after the same check', async () => {
    const run = await clusterRun();
    const stream = await run.gateway.stream();
    stream.push(...answered(run.admitted.contextId));
    stream.end();
    await run.delivered;
    expect(last(run.sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(run.cluster.calls.filter((call) => call.startsWith('renew'))).toEqual([]);
    run.registry.onApplicationShutdown();
  });
});
