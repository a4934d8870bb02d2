import { statusFrame, textDeltaFrame } from '../../demo-kernel/kernel-frames';
import { expectConformantEvents } from '../../../test/support/agui-conformance';
import {
  THREAD,
  allowOnce as allow,
  lastEvent,
  parkedAt,
  resumeEngineRun as resumeRun,
  shellPermission as permission,
} from '../../../test/support/engine-run';

describe('Resume and the run around it (docs/architecture.md#a-run)', () => {
  /** Run 2 allows the permission run 1 ended at; the task still waits for it. */
  const allowingPermission = async () => {
    const parked = await parkedAt(permission);
    return resumeRun(parked, allow(parked.interruptId));
  };

  it('ends with RUN_ERROR CANCELLED when the cancel route cancels it while the answer streams (docs/behaviour/cancel.md#cancel-route)', async () => {
    const { gateway, sink, registry, delivered, admitted, stored, ids } = await allowingPermission();
    const stream = await gateway.stream(1);
    stream.push(statusFrame(ids, 'TASK_STATE_WORKING'), textDeltaFrame(ids, 'Running it'));
    await sink.written(3);
    // The answer was accepted with the first frame: it is recorded, no longer pending.
    expect((await stored()).execution.pending).toEqual({});
    registry.cancelActiveRun(THREAD, admitted.execution.executionId, new AbortController().signal);
    await delivered;
    expect(stream.isAborted).toBe(true);
    await expectConformantEvents(sink.events);
    expect(lastEvent(sink.events)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
  });

  it('keeps the interrupt and cancels nothing when its client leaves before the answer is accepted (docs/behaviour/cancel.md#client-disconnect)', async () => {
    const { gateway, delivery, delivered, interruptId, stored, execution, isBusy } =
      await allowingPermission();
    const stream = await gateway.stream(1);
    delivery.leave();
    expect(execution.currentPhase).toBe('left');
    await delivered;
    expect(stream.isAborted).toBe(true);
    expect(gateway.cancelledTaskIds).toEqual([]);
    expect(Object.keys((await stored()).execution.pending)).toEqual([interruptId]);
    expect(await isBusy()).toBe(false);
  });
});
