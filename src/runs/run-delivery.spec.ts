import type { BaseEvent } from '@ag-ui/core';
import { delay } from 'rxjs';
import { RecordingSink } from '../../test/support/fakes/recording-sink';
import { ByteBudget } from '../run-log/byte-budget';
import { RetainedRun } from '../run-log/retained-run';
import { RunEventLog } from '../run-log/run-event-log';
import { threadStateFixture } from '../../test/support/thread-state-fixture';
import { RunDelivery, type DeliveredRun, type RunDeliveryLog, type RunObserver } from './run-delivery';
import { AsynchronousOperatorError } from './through-operators';

const event = (type: string) => ({ type, timestamp: 1 }) as BaseEvent;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A run that yields the given events, counting how many the handler pulled, then optionally fails. */
class CountedRun implements DeliveredRun {
  pulled = 0;
  disconnects = 0;
  constructor(
    private readonly types: string[],
    private readonly failure?: Error,
  ) {}
  async *events(): AsyncGenerator<BaseEvent> {
    for (const type of this.types) {
      this.pulled++;
      yield event(type);
    }
    if (this.failure) throw this.failure;
  }
  disconnect(): void {
    this.disconnects++;
  }
}

class RecordingObserver implements RunObserver {
  readonly seen: string[] = [];
  ended = 0;
  event(value: BaseEvent): void {
    this.seen.push(value.type);
  }
  end(): void {
    this.ended++;
  }
}

const RUN_TOKEN = '0123456789abcdef';

function deliver(run: CountedRun, log: string[] = [], eventLog: RunDeliveryLog = { runToken: RUN_TOKEN }) {
  const sink = new RecordingSink();
  const observer = new RecordingObserver();
  const release = async () => {
    log.push('release');
  };
  const delivery = new RunDelivery(run, sink, [observer], release, eventLog);
  return { sink, observer, delivery, release, log };
}

/** A retained run over a real log, whose grace window is `graceMs`; `abandoned` counts its window's ends. */
function retained(run: CountedRun, graceMs: number, maxEvents = 100) {
  const abandoned: string[] = [];
  let endedCount = 0;
  const log = new RunEventLog(RUN_TOKEN, { maxEvents, maxBytes: 1 << 20, total: new ByteBudget(1 << 20) });
  const state = threadStateFixture();
  const kept = new RetainedRun(
    {
      threadId: state.threadId,
      runId: 'run-1',
      executionId: state.execution.executionId,
      runToken: RUN_TOKEN,
      admittedState: state,
    },
    log,
    {
      graceMs,
      abandon: () => {
        abandoned.push('grace-over');
        run.disconnect();
      },
      ended: () => endedCount++,
    },
  );
  return { kept, log, abandoned, ended: () => endedCount };
}

describe('RunDelivery (docs/behaviour/sse.md#back-pressure)', () => {
  it('stops pulling events while the sink is over its high-water mark, and goes on once it drains', async () => {
    const run = new CountedRun(['RUN_STARTED', 'A', 'B', 'RUN_FINISHED']);
    const { sink, delivery } = deliver(run);
    sink.fill();
    const delivered = delivery.deliver();
    await sink.written(1);
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    expect(run.pulled).toBe(1);
    expect(sink.waits).toBe(1);
    sink.drain();
    await delivered;
    expect(sink.types()).toEqual(['RUN_STARTED', 'A', 'B', 'RUN_FINISHED']);
    expect(sink.isEnded).toBe(true);
  });

  it('frees the thread before it ends the sink: the next turn may reach another replica at once', async () => {
    const run = new CountedRun(['RUN_STARTED', 'RUN_FINISHED']);
    const log: string[] = [];
    const { sink, delivery } = deliver(run, log);
    const end = sink.end.bind(sink);
    sink.end = () => {
      log.push('end');
      end();
    };
    await delivery.deliver();
    expect(log.slice(0, 2)).toEqual(['release', 'end']);
  });

  it('after the client left writes nothing more, tells the run once, and still observes the drained events', async () => {
    const run = new CountedRun(['RUN_STARTED', 'A', 'B']);
    const { sink, observer, delivery } = deliver(run);
    sink.fill();
    const delivered = delivery.deliver();
    await sink.written(1);
    delivery.leave();
    delivery.leave();
    // A client that left is not waited for: its buffer never drains.
    await delivered;
    expect(run.disconnects).toBe(1);
    expect(sink.types()).toEqual(['RUN_STARTED']);
    expect(observer.seen).toEqual(['RUN_STARTED', 'A', 'B']);
    expect(observer.ended).toBe(1);
    expect(sink.isEnded).toBe(false);
  });

  it('cuts the connection on a fault of the run itself and tells the run its client is gone', async () => {
    const failure = new Error('a bug');
    const run = new CountedRun(['RUN_STARTED'], failure);
    const { sink, observer, delivery } = deliver(run);
    await delivery.deliver();
    expect(sink.abortedWith).toBe(failure);
    expect(sink.isEnded).toBe(false);
    expect(run.disconnects).toBe(1);
    expect(observer.ended).toBe(1);
  });

  it('gives every event an id naming the run, strictly increasing from 1', async () => {
    const run = new CountedRun(['RUN_STARTED', 'A', 'RUN_FINISHED']);
    const { sink, delivery } = deliver(run);
    await delivery.deliver();
    expect(sink.frames.map((frame) => frame.id)).toEqual([
      `${RUN_TOKEN}.1`,
      `${RUN_TOKEN}.2`,
      `${RUN_TOKEN}.3`,
    ]);
  });
});

describe('RunDelivery of a retained run (docs/behaviour/reattach.md#grace-window)', () => {
  it('logs every frame the client is given, and closes the log at the end', async () => {
    const run = new CountedRun(['RUN_STARTED', 'A', 'RUN_FINISHED']);
    const { kept, log, ended } = retained(run, 60_000);
    const { sink, delivery } = deliver(run, [], { runToken: RUN_TOKEN, retained: kept });
    await delivery.deliver();
    const read = log.after(0);
    expect(read.kind === 'frames' && read.frames.map(({ id, data }) => ({ id, data }))).toEqual(sink.frames);
    expect(log.closed).toBe(true);
    expect(ended()).toBe(1);
  });

  it('a client leaving detaches the run: it reads on into the log and is told nothing while the window runs', async () => {
    jest.useFakeTimers();
    try {
      const run = new HeldRun();
      const { kept, log, abandoned } = retained(run, 5_000);
      const { sink, delivery } = deliver(run, [], { runToken: RUN_TOKEN, retained: kept });
      sink.fill();
      const delivered = delivery.deliver();
      run.emit('RUN_STARTED');
      await sink.written(1);
      delivery.leave();
      run.emit('A');
      run.emit('B');
      while (log.lastSequence < 3) await log.whenChanged();
      jest.advanceTimersByTime(4_999);
      expect(run.disconnects).toBe(0);
      jest.advanceTimersByTime(1);
      expect(run.disconnects).toBe(1);
      expect(abandoned).toEqual(['grace-over']);
      jest.advanceTimersByTime(60_000);
      expect(run.disconnects).toBe(1);
      run.finish();
      await delivered;
      expect(sink.types()).toEqual(['RUN_STARTED']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a reader joining within the window stops it; the run then ends normally', async () => {
    jest.useFakeTimers();
    try {
      const run = new HeldRun();
      const { kept, abandoned } = retained(run, 5_000);
      const { delivery } = deliver(run, [], { runToken: RUN_TOKEN, retained: kept });
      const delivered = delivery.deliver();
      run.emit('RUN_STARTED');
      delivery.leave();
      jest.advanceTimersByTime(4_000);
      kept.readerJoined();
      jest.advanceTimersByTime(10_000);
      run.emit('RUN_FINISHED');
      run.finish();
      await delivered;
      kept.readerLeft();
      jest.advanceTimersByTime(10_000);
      expect(run.disconnects).toBe(0);
      expect(abandoned).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a detached run whose log is full drops its oldest frames and goes on: only the window ends it', async () => {
    const run = new CountedRun(['RUN_STARTED', 'A', 'B', 'C', 'D']);
    const { kept, log, abandoned } = retained(run, 60_000, 2);
    const { sink, delivery } = deliver(run, [], { runToken: RUN_TOKEN, retained: kept });
    sink.fill();
    const delivered = delivery.deliver();
    await sink.written(1);
    delivery.leave();
    await delivered;
    expect(abandoned).toEqual([]);
    expect(run.disconnects).toBe(0);
    expect(log.lastSequence).toBe(5);
    expect(log.hasDropped(2)).toBe(true);
    expect(log.hasDropped(3)).toBe(false);
  });

  it('an attached run whose log is full drops its oldest frames instead', async () => {
    const run = new CountedRun(['RUN_STARTED', 'A', 'B', 'C', 'RUN_FINISHED']);
    const { kept, log, abandoned } = retained(run, 60_000, 2);
    const { sink, delivery } = deliver(run, [], { runToken: RUN_TOKEN, retained: kept });
    await delivery.deliver();
    expect(sink.types()).toEqual(['RUN_STARTED', 'A', 'B', 'C', 'RUN_FINISHED']);
    expect(abandoned).toEqual([]);
    expect(log.hasDropped(2)).toBe(true);
    expect(log.hasDropped(3)).toBe(false);
  });

  it("cuts the run when a host's operator is asynchronous: nothing it lets out late is written, and its timers go", async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    try {
      const run = new CountedRun(['RUN_STARTED', 'A', 'RUN_FINISHED']);
      const sink = new RecordingSink();
      const observer = new RecordingObserver();
      const release = async () => undefined;
      const delivery = new RunDelivery(run, sink, [observer], release, { runToken: RUN_TOKEN }, [delay(1)]);
      await delivery.deliver();
      expect(sink.abortedWith).toBeInstanceOf(AsynchronousOperatorError);
      expect(run.disconnects).toBe(1);
      expect(jest.getTimerCount()).toBe(0);
      jest.advanceTimersByTime(10);
      expect(sink.frames).toEqual([]);
      expect(observer.seen).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });
});

/** A run whose events the test emits one by one, ending when told. */
class HeldRun extends CountedRun {
  private readonly queue: string[] = [];
  private wake?: () => void;
  private isDone = false;
  constructor() {
    super([]);
  }
  emit(type: string): void {
    this.queue.push(type);
    this.wake?.();
  }
  finish(): void {
    this.isDone = true;
    this.wake?.();
  }
  override async *events(): AsyncGenerator<BaseEvent> {
    for (;;) {
      const type = this.queue.shift();
      if (type !== undefined) {
        yield event(type);
        continue;
      }
      if (this.isDone) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
