import type { BaseEvent } from '@ag-ui/core';
import { RecordingSink } from '../../test/support/fakes/recording-sink';
import { RunDelivery, type DeliveredRun, type RunObserver } from './run-delivery';

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

function deliver(run: CountedRun, log: string[] = []) {
  const sink = new RecordingSink();
  const observer = new RecordingObserver();
  const release = async () => {
    log.push('release');
  };
  const delivery = new RunDelivery(run, sink, [observer], release);
  return { sink, observer, delivery, release, log };
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
});
