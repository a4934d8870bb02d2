import type { BaseEvent } from '@ag-ui/core';
import type { RunSink } from '../../../src/runs/run-flow-control';
import type { EventFrame } from '../../../src/wire/sse-frame';

/**
 * A transport for the run handler: records what it is given and can be made "full" (`fill`) so that
 * `whenWritable` holds the run back until `drain`. `written(n)` resolves once n events arrived.
 */
export class RecordingSink implements RunSink {
  readonly frames: EventFrame[] = [];
  /** The frames' events, read back from their `data: <json>\n\n` records. */
  readonly events: BaseEvent[] = [];
  isEnded = false;
  abortedWith?: unknown;
  /** How many times the run asked whether it may go on while the sink was full. */
  waits = 0;
  private full?: { promise: Promise<void>; resolve: () => void };
  private readonly watchers: { count: number; resolve: () => void }[] = [];
  private finished?: () => void;
  /** Settles once the run ended or aborted the sink. */
  readonly done = new Promise<void>((resolve) => (this.finished = resolve));

  write(frame: EventFrame): void {
    this.frames.push(frame);
    this.events.push(JSON.parse(frame.data.slice('data: '.length)) as BaseEvent);
    for (const watcher of this.watchers.filter((w) => this.events.length >= w.count)) watcher.resolve();
  }

  whenWritable(): Promise<void> | undefined {
    if (!this.full) return undefined;
    this.waits++;
    return this.full.promise;
  }

  end(): void {
    this.isEnded = true;
    this.finished?.();
  }

  abort(error: unknown): void {
    this.abortedWith = error;
    this.finished?.();
  }

  fill(): void {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    this.full = { promise, resolve };
  }

  drain(): void {
    this.full?.resolve();
    this.full = undefined;
  }

  written(count: number): Promise<void> {
    if (this.events.length >= count) return Promise.resolve();
    return new Promise<void>((resolve) => this.watchers.push({ count, resolve }));
  }

  types(): string[] {
    return this.events.map((event) => event.type);
  }
}
