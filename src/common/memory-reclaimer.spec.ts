import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import { exposedGc } from '../../test/support/exposed-gc';
import { MemoryReclaimer, processHeapControl, type HeapControl } from './memory-reclaimer';

const MIB = 1024 * 1024;

/**
 * A heap whose size a test sets; a collection brings what is used down to `live` and keeps the freed pages,
 * unless it shrinks the heap.
 */
class FakeHeap implements HeapControl {
  used = 40 * MIB;
  live = 40 * MIB;
  freePages = 0;
  loopBusy = 0;
  collections = 0;
  shrinks = 0;

  usedBytes(): number {
    return this.used;
  }

  committedBytes(): number {
    return this.used + this.freePages;
  }

  loopUtilization(): number {
    return this.loopBusy;
  }

  collect(shrink: boolean): void {
    this.collections++;
    this.freePages = shrink ? 0 : this.freePages + this.used - this.live;
    if (shrink) this.shrinks++;
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
    expect(heap.shrinks).toBe(0); // more bodies may come: V8 keeps its pages for them
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
    expect(heap.committedBytes()).toBe(heap.live); // the pages went back too
  });

  it('gives back, once quiet, the pages a burst left after its pressure collections', () => {
    heap.used += 200 * MIB;
    reclaimer.noteBodyReleased(64 * MIB);
    advance(0);
    expect(heap.collections).toBe(1);
    expect(heap.used).toBe(heap.live); // nothing left to collect, but V8 still holds the 200 MiB of pages
    advance(20_000);
    expect(heap.shrinks).toBe(1);
    expect(heap.committedBytes()).toBe(heap.live);
    advance(60_000); // quiet and small: left alone
    expect(heap.collections).toBe(2);
  });

  it('shrinks once when quiet after a pressure collection, however little the heap grew', () => {
    heap.used += 4 * MIB;
    reclaimer.noteBodyReleased(64 * MIB);
    advance(0);
    advance(20_000);
    expect(heap.shrinks).toBe(1);
    advance(60_000);
    expect(heap.collections).toBe(2);
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

  it('leaves a quiet heap alone when it holds less than 16 MiB more than the last quiet collection left', () => {
    heap.used += 16 * MIB - 1;
    advance(30_000);
    expect(heap.collections).toBe(0);
    heap.used += 1;
    advance(10_000);
    expect(heap.collections).toBe(1);
  });

  it('measures growth from what the last quiet collection left, not from the start', () => {
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

describe('MemoryReclaimer outside fake timers', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('collects in its own context, not in that of the request that gave the body back (whose id its log would carry)', async () => {
    const requestContext = new AsyncLocalStorage<string>();
    const heap = new FakeHeap();
    const collectedIn = new Promise<string | undefined>((resolve) => {
      heap.collect = () => resolve(requestContext.getStore());
    });
    const reclaimer = new MemoryReclaimer(heap, { intervalMs: 60_000, pressureBytes: MIB });
    requestContext.run('request-1', () => reclaimer.noteBodyReleased(MIB));
    await expect(collectedIn).resolves.toBeUndefined();
    reclaimer.stop();
  });
});

describe('processHeapControl', () => {
  it('is undefined in a process started without --expose-gc: no reclaimer, and no flag turned on at run time', () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(processHeapControl()).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it("collects this process's garbage with the exposed gc", () => {
    const heap = processHeapControl(exposedGc())!;
    const garbage = Array.from({ length: 2000 }, (_, i) => `${i}`.repeat(4000));
    const withGarbage = heap.usedBytes();
    garbage.length = 0;
    heap.collect(false);
    expect(heap.usedBytes()).toBeLessThan(withGarbage - 4 * MIB);
  });

  it('gives the free pages back when it shrinks', () => {
    const heap = processHeapControl(exposedGc())!;
    // Garbage once the function returns: the heap grows to hold it, and a plain collection keeps the pages.
    const allocate = () => Array.from({ length: 2000 }, (_, i) => `${i}`.repeat(4000)).length;
    expect(allocate()).toBe(2000);
    heap.collect(false);
    const keptPages = heap.committedBytes() - heap.usedBytes();
    heap.collect(true);
    expect(heap.committedBytes() - heap.usedBytes()).toBeLessThan(keptPages - 8 * MIB);
  });
});
