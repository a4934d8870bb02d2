import { Logger } from '@nestjs/common';
import { MemoryReclaimer, processHeapControl, type HeapControl } from './memory-reclaimer';

const MIB = 1024 * 1024;

/** A heap whose size a test sets; a collection brings it down to `live`. */
class FakeHeap implements HeapControl {
  used = 40 * MIB;
  live = 40 * MIB;
  loopBusy = 0;
  collections = 0;

  usedBytes(): number {
    return this.used;
  }

  loopUtilization(): number {
    return this.loopBusy;
  }

  collect(): void {
    this.collections++;
    this.used = this.live;
  }
}

describe('MemoryReclaimer', () => {
  beforeAll(() => Logger.overrideLogger(false));
  let heap: FakeHeap;
  let reclaimer: MemoryReclaimer;
  let nowMs: number;

  beforeEach(() => {
    jest.useFakeTimers();
    nowMs = 0;
    heap = new FakeHeap();
    reclaimer = new MemoryReclaimer(heap, { intervalMs: 10_000, pressureBytes: 64 * MIB }, () => nowMs);
  });

  afterEach(() => {
    reclaimer.stop();
    jest.useRealTimers();
  });

  const advance = (ms: number) => {
    nowMs += ms;
    jest.advanceTimersByTime(ms);
  };

  it('collects once the bodies given back reach the pressure bound, not before', () => {
    reclaimer.noteBodyReleased(40 * MIB);
    advance(0);
    expect(heap.collections).toBe(0);
    reclaimer.noteBodyReleased(24 * MIB);
    advance(0);
    expect(heap.collections).toBe(1);
  });

  it('leaves at least a second between two collections under pressure', () => {
    reclaimer.noteBodyReleased(64 * MIB);
    advance(0);
    reclaimer.noteBodyReleased(64 * MIB);
    advance(999);
    expect(heap.collections).toBe(1);
    advance(1);
    expect(heap.collections).toBe(2);
  });

  it('collects a grown heap at the first tick after a tick with no body', () => {
    heap.used += 100 * MIB;
    reclaimer.noteBodyReleased(MIB);
    advance(10_000); // bodies since the last tick: not quiet yet
    expect(heap.collections).toBe(0);
    advance(10_000); // nothing since: quiet
    expect(heap.collections).toBe(1);
    expect(heap.used).toBe(heap.live);
  });

  it('leaves a grown heap to V8 while the event loop is busy (runs streaming), and collects once it is quiet', () => {
    heap.used += 100 * MIB;
    heap.loopBusy = 0.02;
    advance(30_000);
    expect(heap.collections).toBe(0);
    heap.loopBusy = 0.019;
    advance(10_000);
    expect(heap.collections).toBe(1);
  });

  it('leaves a quiet heap alone when it grew less than 16 MiB over what the last collection left', () => {
    heap.used += 16 * MIB - 1;
    advance(30_000);
    expect(heap.collections).toBe(0);
    heap.used += 1;
    advance(10_000);
    expect(heap.collections).toBe(1);
  });

  it('measures growth from what the last collection left, not from the start', () => {
    heap.live = 90 * MIB; // runs still open hold this much
    heap.used = 120 * MIB;
    advance(10_000);
    expect(heap.collections).toBe(1);
    heap.used = 100 * MIB; // 10 MiB over the 90 the collection left
    advance(20_000);
    expect(heap.collections).toBe(1);
  });

  it('does nothing after stop', () => {
    reclaimer.noteBodyReleased(64 * MIB);
    reclaimer.stop();
    heap.used += 100 * MIB;
    advance(60_000);
    expect(heap.collections).toBe(0);
  });
});

describe('processHeapControl', () => {
  it("collects this process's garbage without exposing gc to the process's own code", () => {
    const heap = processHeapControl();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    const garbage = Array.from({ length: 2000 }, (_, i) => `${i}`.repeat(4000));
    const withGarbage = heap.usedBytes();
    garbage.length = 0;
    heap.collect();
    expect(heap.usedBytes()).toBeLessThan(withGarbage - 4 * MIB);
  });
});
