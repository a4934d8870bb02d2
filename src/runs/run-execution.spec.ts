import { endOfTurnFrames, statusFrame, textDeltaFrame } from '../demo-kernel/kernel-frames';
import { inputRequiredFrame, permissionInput } from '../demo-kernel/kernel-inputs';
import { shellPermissionSpec } from '../demo-kernel/interrupt-scripts';
import { ThreadRegistry } from '../threads/thread-registry';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import {
  CANCEL_TIMEOUT_MS,
  THREAD,
  freshThread,
  kernelIds as ids,
  lastEvent as last,
  parkedAt,
  startEngineRun as startRun,
} from '../../test/support/engine-run';
import { FakeThreadCluster } from '../../test/support/fakes/fake-thread-cluster';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';

/** A run of thread-1 that ended at a permission interrupt. */
const parkedAtInterrupt = () => parkedAt((kernel) => permissionInput(kernel, shellPermissionSpec('tool-1')));

describe('RunExecution lifecycle (docs/architecture.md#a-run)', () => {
  it('streams a normal turn to RUN_FINISHED, makes the execution terminal and frees the thread', async () => {
    const { gateway, sink, delivered, stored, isBusy, admitted } = await startRun();
    const stream = await gateway.stream();
    stream.push(
      statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'),
      textDeltaFrame(ids(admitted.contextId), 'Hello'),
      ...endOfTurnFrames(ids(admitted.contextId), 'Hello'),
    );
    stream.end();
    await delivered;
    expect(sink.isEnded).toBe(true);
    await expectConformantEvents(sink.events);
    expect(last(sink.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect((await stored()).terminalExecutionIds).toContain(admitted.execution.executionId);
    expect(await isBusy()).toBe(false);
    expect(gateway.cancelledTaskIds).toEqual([]);
  });

  it('reads on after a client that left before the task id, cancels the task once a frame names it, and frees the thread before CancelTask answers (docs/behaviour/cancel.md#client-disconnect)', async () => {
    const { gateway, sink, delivery, delivered, stored, isBusy, admitted, execution } = await startRun();
    const answerCancels = gateway.holdCancels();
    const stream = await gateway.stream();
    await sink.written(1);
    delivery.leave();
    expect(execution.currentPhase).toBe('reading-to-cancel');
    expect(stream.isAborted).toBe(false);
    expect(gateway.cancelledTaskIds).toEqual([]);

    stream.push(statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'));
    await delivered;
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
    expect(stream.isAborted).toBe(true);
    // Written before the cancel's answer: the thread is free and its execution terminal already.
    expect(await isBusy()).toBe(false);
    const state = await stored();
    expect(state.terminalExecutionIds).toContain(admitted.execution.executionId);
    expect(state.execution.lastTaskId).toBe('task-1');
    // Nothing goes to a client that left: only what was written before it did.
    expect(sink.types()).toEqual(['RUN_STARTED']);
    expect(sink.isEnded).toBe(false);
    answerCancels();
  });

  it('stops reading after the cancel timeout when the kernel names no task, and frees the thread (docs/behaviour/cancel.md#client-disconnect)', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { gateway, sink, delivery, delivered, isBusy, execution } = await startRun();
      const stream = await gateway.stream();
      await sink.written(1);
      delivery.leave();
      jest.advanceTimersByTime(CANCEL_TIMEOUT_MS - 1);
      expect(stream.isAborted).toBe(false);
      jest.advanceTimersByTime(1);
      await delivered;
      expect(stream.isAborted).toBe(true);
      expect(execution.currentPhase).toBe('ended');
      expect(gateway.cancelledTaskIds).toEqual([]);
      expect(await isBusy()).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('cancels the task of a client that leaves after the task id and frees the thread at once (docs/behaviour/cancel.md#client-disconnect)', async () => {
    const { gateway, sink, delivery, delivered, isBusy, admitted, execution } = await startRun();
    gateway.holdCancels();
    const stream = await gateway.stream();
    stream.push(statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'));
    stream.push(textDeltaFrame(ids(admitted.contextId), 'Hel'));
    await sink.written(3);
    delivery.leave();
    expect(execution.currentPhase).toBe('ended');
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
    expect(stream.isAborted).toBe(true);
    await delivered;
    expect(await isBusy()).toBe(false);
    expect(sink.isEnded).toBe(false);
    expect(sink.types()).not.toContain('RUN_ERROR');
  });

  it.each([
    { upstream: 'fails its stream', endsOnAbort: false },
    { upstream: 'ends its stream normally', endsOnAbort: true },
  ])(
    'ends with RUN_ERROR CANCELLED and every span closed when the cancel route cancels it mid-stream and the kernel then $upstream (docs/behaviour/cancel.md#cancel-route)',
    async ({ endsOnAbort }) => {
      const { gateway, sink, registry, delivered, admitted, stored } = await startRun();
      gateway.streamsEndOnAbort = endsOnAbort;
      const stream = await gateway.stream();
      stream.push(statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'));
      stream.push(textDeltaFrame(ids(admitted.contextId), 'Hel'));
      await sink.written(4);
      registry.cancelActiveRun(THREAD, admitted.execution.executionId, new AbortController().signal);
      await delivered;
      expect(stream.isAborted).toBe(true);
      await expectConformantEvents(sink.events);
      expect(sink.types()).not.toContain('RUN_FINISHED');
      expect(sink.types().slice(-2)).toEqual(['TEXT_MESSAGE_END', 'RUN_ERROR']);
      expect(last(sink.events)).toMatchObject({ code: 'CANCELLED' });
      // The cancel extension cancels the task itself; the run only stops reading.
      expect(gateway.cancelledTaskIds).toEqual([]);
      expect((await stored()).terminalExecutionIds).toContain(admitted.execution.executionId);
    },
  );

  it('ends at an interrupt with the interrupt durable, and a later disconnect cancels nothing (docs/behaviour/interrupts.md#from-input-required-to-interrupts)', async () => {
    const { gateway, sink, delivery, stored, isBusy, interruptId, execution } = await parkedAtInterrupt();
    await expectConformantEvents(sink.events);
    expect(last(sink.events)).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'interrupt', interrupts: [expect.objectContaining({ id: interruptId })] },
    });
    expect(execution.currentPhase).toBe('interrupted');
    const state = await stored();
    expect(Object.keys(state.execution.pending)).toEqual([interruptId]);
    expect(state.execution.taskId).toBe('task-1');
    delivery.leave();
    expect(gateway.cancelledTaskIds).toEqual([]);
    expect((await stored()).execution.pending).toEqual(state.execution.pending);
    expect(await isBusy()).toBe(false);
  });

  it('ends with STATE_PERSISTENCE_FAILED and cancels the task when the interrupt cannot be made durable (docs/behaviour/state.md#persist-before-announce)', async () => {
    const { gateway, sink, store, delivered, admitted, stored } = await startRun();
    const stream = await gateway.stream();
    stream.push(statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'));
    await sink.written(2);
    store.failNextSaves(1);
    const permission = permissionInput(ids(admitted.contextId), shellPermissionSpec('tool-1'));
    stream.push(inputRequiredFrame(ids(admitted.contextId), { input: permission }));
    await delivered;
    await expectConformantEvents(sink.events);
    expect(last(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'STATE_PERSISTENCE_FAILED' });
    expect(sink.types()).not.toContain('RUN_FINISHED');
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
    expect((await stored()).execution.pending).toEqual({});
  });

  it('ends with THREAD_TAKEN_OVER and cancels nothing when another replica took the lease (docs/behaviour/state.md#the-run-lease)', async () => {
    const cluster = new FakeThreadCluster();
    await cluster.write(freshThread(), 0);
    const store = new InMemoryThreadStore();
    const registry = new ThreadRegistry(store, cluster, null, { threadCacheSize: 8 });
    const { gateway, sink, delivered, admitted } = await startRun({ store, registry });
    const stream = await gateway.stream();
    stream.push(statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'));
    await sink.written(2);
    // The lease expired while this replica stalled, and another replica claimed the thread.
    cluster.dropLease(THREAD);
    cluster.takeLease(THREAD);
    const permission = permissionInput(ids(admitted.contextId), shellPermissionSpec('tool-1'));
    stream.push(inputRequiredFrame(ids(admitted.contextId), { input: permission }));
    await delivered;
    await expectConformantEvents(sink.events);
    expect(last(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'THREAD_TAKEN_OVER' });
    expect(sink.types()).not.toContain('RUN_FINISHED');
    expect(gateway.cancelledTaskIds).toEqual([]);
    // Nothing this run wrote after the loss landed: the thread is the new owner's.
    expect((await cluster.read(THREAD)).state?.execution.pending).toEqual({});
    registry.onApplicationShutdown();
  });

  it('ends with STATE_LOST, not THREAD_TAKEN_OVER, when the store lost the thread with its lease (a Redis restart without AOF)', async () => {
    const cluster = new FakeThreadCluster();
    await cluster.write(freshThread(), 0);
    const registry = new ThreadRegistry(new InMemoryThreadStore(), cluster, null, { threadCacheSize: 8 });
    const { gateway, sink, delivered, admitted } = await startRun({ registry });
    const stream = await gateway.stream();
    stream.push(statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'));
    await sink.written(2);
    cluster.loseEverything();
    const permission = permissionInput(ids(admitted.contextId), shellPermissionSpec('tool-1'));
    stream.push(inputRequiredFrame(ids(admitted.contextId), { input: permission }));
    await delivered;
    await expectConformantEvents(sink.events);
    expect(last(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'STATE_LOST' });
    expect(gateway.cancelledTaskIds).toEqual([]);
    registry.onApplicationShutdown();
  });

  it('ends with RUN_ERROR A2A_UNAVAILABLE, the open text closed first and the task cancelled, when the kernel stream fails (docs/behaviour/events.md#run-lifecycle)', async () => {
    const { gateway, sink, delivered, admitted, isBusy } = await startRun();
    const stream = await gateway.stream();
    stream.push(statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'));
    stream.push(textDeltaFrame(ids(admitted.contextId), 'Hel'));
    await sink.written(4);
    // What the SDK gateway throws when the upstream goes silent past its idle deadline, or drops the socket.
    stream.fail(new TypeError('terminated'));
    await delivered;
    await expectConformantEvents(sink.events);
    expect(sink.types().slice(-2)).toEqual(['TEXT_MESSAGE_END', 'RUN_ERROR']);
    expect(last(sink.events)).toMatchObject({ code: 'A2A_UNAVAILABLE' });
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
    expect(await isBusy()).toBe(false);
  });

  it('cancels the task and ends with RUN_ERROR CANCELLED when the drain time (IAC_CODE_AGUI_DRAIN_SECONDS) is over at shutdown', async () => {
    const { gateway, sink, delivered, admitted, execution } = await startRun();
    const stream = await gateway.stream();
    stream.push(statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'));
    await sink.written(2);
    execution.shutdown();
    execution.shutdown();
    await delivered;
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
    await expectConformantEvents(sink.events);
    expect(last(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
  });

  it('stops reading at shutdown before the task id, with nothing to cancel', async () => {
    const { gateway, sink, delivered, execution } = await startRun();
    const stream = await gateway.stream();
    await sink.written(1);
    execution.shutdown();
    await delivered;
    expect(stream.isAborted).toBe(true);
    expect(gateway.cancelledTaskIds).toEqual([]);
    expect(last(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
  });

  it('keeps RUN_FINISHED(interrupt) as the one terminal event when a cancel arrives while it is being delivered (docs/behaviour/events.md#run-lifecycle)', async () => {
    const { gateway, sink, registry, delivered, admitted } = await startRun();
    const stream = await gateway.stream();
    stream.push(statusFrame(ids(admitted.contextId), 'TASK_STATE_WORKING'));
    await sink.written(2);
    // The client is slow: the run waits after RUN_FINISHED(interrupt) for the buffer to drain.
    sink.fill();
    const permission = permissionInput(ids(admitted.contextId), shellPermissionSpec('tool-1'));
    stream.push(inputRequiredFrame(ids(admitted.contextId), { input: permission }));
    while (last(sink.events).type !== 'RUN_FINISHED') await sink.written(sink.events.length + 1);
    // The cancel must meet the run while it is held after RUN_FINISHED(interrupt).
    expect(sink.waits).toBe(1);
    registry.cancelActiveRun(THREAD, admitted.execution.executionId, new AbortController().signal);
    sink.drain();
    await delivered;
    expect(sink.types().filter((type) => type === 'RUN_FINISHED' || type === 'RUN_ERROR')).toEqual([
      'RUN_FINISHED',
    ]);
    await expectConformantEvents(sink.events);
  });
});
