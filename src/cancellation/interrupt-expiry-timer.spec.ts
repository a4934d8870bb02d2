import { deferred } from '../../test/support/deferred';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { InMemoryThreadStore } from '../../test/support/fakes/in-memory-thread-store';
import { ScriptedA2aGateway } from '../../test/support/fakes/scripted-a2a-gateway';
import { threadStateFixture } from '../../test/support/thread-state-fixture';
import { ThreadRegistry } from '../threads/thread-registry';
import { END_REASON_EXPIRED, type ThreadState } from '../threads/thread-state';
import { InterruptExpiryTimer } from './interrupt-expiry-timer';

const START = Date.UTC(2026, 10, 30, 12, 0, 0);
const MINUTE = 60_000;
const at = (ms: number) => new Date(START + ms).toISOString();

/** A thread parked at two interrupts: the earliest expiry decides (docs/behaviour/interrupts.md#expiry). */
function parkedUntil(first: number, second?: number, threadId = 'thread-1'): ThreadState {
  const state = threadStateFixture({ isParked: true, expiresAt: at(first) });
  const pending = { ...state.execution.pending };
  if (second !== undefined)
    pending['question-1'] = {
      value: { inputId: 'question-1', kind: 'question' },
      sideband: false,
      expiresAt: at(second),
    };
  return { ...state, threadId, execution: { ...state.execution, pending } };
}

/**
 * Jest's fake timers stand in for setTimeout (the timer's period is the behaviour under test), and the
 * FakeClock moves with them, so "now" and the timers agree.
 */
describe('InterruptExpiryTimer (docs/behaviour/interrupts.md#expiry)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function newTimer() {
    const store = new InMemoryThreadStore();
    const registry = new ThreadRegistry(store);
    const gateway = new ScriptedA2aGateway();
    const clock = new FakeClock(START);
    const timer = new InterruptExpiryTimer(registry, gateway, clock);
    timer.onModuleInit();
    const commits: ThreadState[] = [];
    registry.onCommit((state) => commits.push(state));
    /** The next write of the thread, whoever makes it. */
    const nextCommit = (threadId = 'thread-1') => {
      const seen = deferred<ThreadState>();
      registry.onCommit((state) => state.threadId === threadId && seen.resolve(state));
      return seen.promise;
    };
    const passes = async (ms: number) => {
      clock.advance(ms);
      await jest.advanceTimersByTimeAsync(ms);
    };
    return { store, registry, gateway, clock, timer, commits, nextCommit, passes };
  }

  it('fires at the earliest expiry: CancelTask, pending cleared, the execution terminal as "expired"', async () => {
    const { registry, gateway, store, nextCommit, passes } = newTimer();
    await registry.commit(parkedUntil(2 * MINUTE, 1 * MINUTE));
    await passes(MINUTE - 1);
    expect(gateway.cancelledTaskIds).toEqual([]);
    const expired = nextCommit();
    await passes(1);
    const state = await expired;
    expect(gateway.cancelledTaskIds).toEqual(['task-1']);
    expect(state.execution).toMatchObject({ taskId: null, lastTaskId: 'task-1', pending: {} });
    expect(state.execution.endReason).toBe(END_REASON_EXPIRED);
    expect(state.terminalExecutionIds).toEqual(['exec-1']);
    expect(JSON.parse(store.documents.get('thread-1') ?? 'null')).toEqual(state);
  });

  it('re-arms on every write: a later expiry replaces the earlier timer', async () => {
    const { registry, gateway, nextCommit, passes } = newTimer();
    await registry.commit(parkedUntil(MINUTE));
    await registry.commit(parkedUntil(3 * MINUTE));
    expect(jest.getTimerCount()).toBe(1);
    await passes(2 * MINUTE);
    expect(gateway.cancelledTaskIds).toEqual([]);
    const expired = nextCommit();
    await passes(MINUTE);
    expect((await expired).execution.pending).toEqual({});
  });

  it('re-arms when it fires before the clock reaches the expiry (setTimeout may run early)', async () => {
    const { registry, gateway, clock, nextCommit } = newTimer();
    await registry.commit(parkedUntil(MINUTE));
    await jest.advanceTimersByTimeAsync(MINUTE); // the timer fires, the clock still says 12:00
    expect(gateway.cancelledTaskIds).toEqual([]);
    expect(jest.getTimerCount()).toBe(1);
    clock.advance(MINUTE);
    const expired = nextCommit();
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect((await expired).execution.endReason).toBe(END_REASON_EXPIRED);
  });

  it('clears the timer once the thread has nothing pending (resumed, cancelled or a new turn)', async () => {
    const { registry, gateway, commits, passes } = newTimer();
    await registry.commit(parkedUntil(MINUTE));
    await registry.commit(threadStateFixture());
    expect(jest.getTimerCount()).toBe(0);
    const writes = commits.length;
    await passes(2 * MINUTE);
    expect(gateway.cancelledTaskIds).toEqual([]);
    expect(commits).toHaveLength(writes);
  });

  it('arms for a thread loaded from the store, not only for one written here', async () => {
    const { store, registry, nextCommit, passes } = newTimer();
    await store.save(parkedUntil(MINUTE));
    await registry.load('thread-1');
    const expired = nextCommit();
    await passes(MINUTE);
    expect((await expired).terminalExecutionIds).toEqual(['exec-1']);
  });

  it('leaves a thread whose slot a run holds to that run', async () => {
    const { registry, gateway, commits, passes } = newTimer();
    await registry.commitAndClaim(parkedUntil(MINUTE), 'run-2');
    const writes = commits.length;
    await passes(MINUTE);
    await registry.withLock('thread-1', async () => undefined); // the expiry's turn of the lock is over
    expect(gateway.cancelledTaskIds).toEqual([]);
    expect(commits).toHaveLength(writes);
    expect((await registry.load('thread-1'))?.execution.pending).toHaveProperty('permission-1');
  });

  it('still ends the execution when CancelTask fails (best effort)', async () => {
    const { registry, gateway, nextCommit, passes } = newTimer();
    gateway.failCancels();
    await registry.commit(parkedUntil(MINUTE));
    const expired = nextCommit();
    await passes(MINUTE);
    expect((await expired).execution).toMatchObject({ pending: {}, endReason: END_REASON_EXPIRED });
  });

  it('survives a store failure: the thread keeps its interrupt on disk and other threads still expire', async () => {
    const { registry, store, gateway, nextCommit, passes } = newTimer();
    await registry.commit(parkedUntil(MINUTE));
    await registry.commit(parkedUntil(2 * MINUTE, undefined, 'thread-2'));
    store.failNextSaves(1);
    await passes(MINUTE);
    await registry.withLock('thread-1', async () => undefined); // the failed expiry has let go of the lock
    expect(gateway.cancelledTaskIds).toEqual(['task-1']); // it did run
    expect(JSON.parse(store.documents.get('thread-1') ?? 'null').execution.pending).toHaveProperty(
      'permission-1',
    );
    const other = nextCommit('thread-2');
    await passes(MINUTE);
    expect((await other).execution.endReason).toBe(END_REASON_EXPIRED);
  });

  it('stops every timer on shutdown', async () => {
    const { registry, timer } = newTimer();
    await registry.commit(parkedUntil(MINUTE));
    await registry.commit(parkedUntil(MINUTE, undefined, 'thread-2'));
    expect(jest.getTimerCount()).toBe(2);
    timer.onApplicationShutdown();
    expect(jest.getTimerCount()).toBe(0);
  });
});
