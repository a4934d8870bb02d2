import { EventEmitter } from 'node:events';
import type { BaseEvent } from '@ag-ui/core';
import type { Request } from 'express';
import { Subject } from 'rxjs';
import type { AppConfig } from '../config/app-config';
import { RunMetrics } from '../metrics/run-metrics';
import { RunDemand, type RunFrame } from '../run-log/run-frames';
import { FakeWire } from '../../test/support/fakes/fake-wire';
import { encodeSseFrame } from '../wire/sse-frame';
import { SSE_OPEN, SseRunRenderer, type SseRunItem } from './sse-run-renderer';
import { HEARTBEAT, HEARTBEAT_COMMENT } from './with-heartbeat';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
let sequence = 0;
const demand = new RunDemand();
/** The frame a run's Observable emits for an event of this type. */
const event = (type: string): RunFrame => ({
  id: `0123456789abcdef.${++sequence}`,
  data: encodeSseFrame({ type, threadId: 't', runId: 'r', timestamp: 1 } as BaseEvent),
  demand,
});

/** The part of an Express response the renderer uses, recording what is written and in which order. */
class FakeResponse extends EventEmitter {
  readonly log: string[] = [];
  readonly socket = new FakeWire(this.log, 'socket.');
  readonly headers: Record<string, string> = {};
  readonly chunks: string[] = [];
  statusCode = 0;
  writableNeedDrain = false;
  destroyed = false;
  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string): void {
    this.headers[name] = value;
  }
  flushHeaders(): void {
    this.log.push('headers');
  }
  cork(): void {
    this.log.push('cork');
  }
  uncork(): void {
    this.log.push('uncork');
  }
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    this.log.push('write');
    return true;
  }
  end(): void {
    this.log.push('end');
  }
  destroy(): void {
    this.destroyed = true;
    this.log.push('destroy');
  }
  /** The client went away. */
  close(): void {
    this.emit('close');
  }
}

describe('SseRunRenderer (docs/behaviour/sse.md)', () => {
  let metrics: RunMetrics;
  beforeEach(() => (metrics = new RunMetrics()));
  afterEach(() => metrics.onModuleDestroy());

  /** The renderer over a run route's Observable `run`, subscribed as Nest does. */
  const render = (graceMs = 0) => {
    const response = new FakeResponse();
    const run = new Subject<SseRunItem>();
    const config = { reattach: { graceMs } } as AppConfig;
    const request = { res: response } as unknown as Request;
    const outcome: { values: number; completed: boolean; error?: unknown } = { values: 0, completed: false };
    const subscription = new SseRunRenderer(metrics, config)
      .render(request)(run.asObservable())
      .subscribe({
        next: () => outcome.values++,
        complete: () => (outcome.completed = true),
        error: (error: unknown) => (outcome.error = error),
      });
    return { response, run, outcome, subscription };
  };

  it('opens the response at the first frame, 200 with the SSE headers, and with the defaults writes exactly `data: <json>\\n\\n`', () => {
    const { response, run, outcome } = render();
    expect(response.statusCode).toBe(0);
    run.next(event('RUN_STARTED'));
    expect(response.statusCode).toBe(200);
    expect(response.headers).toEqual({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    expect(response.chunks).toEqual([
      'data: {"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1}\n\n',
    ]);
    run.complete();
    expect(response.log.at(-1)).toBe('end');
    // One value, then complete: Nest's own reply finds the response ended.
    expect(outcome).toEqual({ values: 1, completed: true });
  });

  it('opens the response on SSE_OPEN with nothing written: the headers leave at the end of the turn, or with a frame of that turn', async () => {
    const { response, run } = render(30_000);
    run.next(SSE_OPEN);
    expect(response.statusCode).toBe(200);
    expect(response.chunks).toEqual([]);
    await nextTurn();
    expect(response.log).toEqual(['cork', 'headers', 'socket.cork', 'uncork', 'socket.uncork']);
    const frame = event('RUN_STARTED');
    run.next(frame);
    expect(response.chunks).toEqual([
      `id: ${frame.id}\ndata: {"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1}\n\n`,
    ]);
  });

  it('writes the id line first while reattaching is on (docs/behaviour/reattach.md#event-ids); the heartbeat has none', () => {
    const { response, run } = render(30_000);
    const frame = event('RUN_STARTED');
    run.next(frame);
    run.next(HEARTBEAT);
    expect(response.chunks).toEqual([
      `id: ${frame.id}\ndata: {"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1}\n\n`,
      HEARTBEAT_COMMENT,
    ]);
  });

  it("corks once per turn of the event loop: a burst's frames leave in one socket write (docs/benchmarks.md)", async () => {
    const { response, run } = render();
    // The headers wait, corked, for the first frame; that frame (RUN_STARTED) leaves with them at once.
    run.next(event('RUN_STARTED'));
    expect(response.log).toEqual(['cork', 'headers', 'write', 'socket.cork', 'uncork', 'socket.uncork']);
    run.next(event('TEXT_MESSAGE_START'));
    run.next(event('TEXT_MESSAGE_CONTENT'));
    expect(response.log.slice(6)).toEqual(['cork', 'write', 'write']);
    await nextTurn();
    // The socket's own cork around the response's uncork makes the buffered frames one writev.
    expect(response.log.slice(9)).toEqual(['socket.cork', 'uncork', 'socket.uncork']);
    run.next(event('RUN_FINISHED'));
    run.complete();
    expect(response.log.slice(12)).toEqual([
      'cork',
      'write',
      'socket.cork',
      'uncork',
      'socket.uncork',
      'end',
    ]);
  });

  it('holds the run back while the socket is over its high-water mark, flushing the turn first, until drain (docs/behaviour/sse.md#back-pressure)', async () => {
    const { response, run } = render();
    run.next(event('RUN_STARTED'));
    expect(demand.take()).toBeUndefined();
    response.writableNeedDrain = true;
    response.socket.writableNeedDrain = true;
    run.next(event('TEXT_MESSAGE_CONTENT'));
    const writable = demand.take();
    expect(writable).toBeInstanceOf(Promise);
    expect(response.log.slice(-3)).toEqual(['socket.cork', 'uncork', 'socket.uncork']);
    let isWritable = false;
    void writable?.then(() => (isWritable = true));
    await nextTurn();
    expect(isWritable).toBe(false);
    response.socket.drain();
    await writable;
    expect(response.socket.listenerCount('drain')).toBe(0);
  });

  it('does not hold the run when flushing the turn was enough to bring the socket under its mark', () => {
    const { response, run } = render();
    run.next(event('RUN_STARTED'));
    response.writableNeedDrain = true;
    run.next(event('TEXT_MESSAGE_CONTENT'));
    expect(demand.take()).toBeUndefined();
  });

  it('ends a wait when a client that stopped reading closes, and unsubscribes the run (the client left)', async () => {
    const { response, run } = render();
    run.next(event('RUN_STARTED'));
    response.socket.writableNeedDrain = true;
    run.next(event('TEXT_MESSAGE_CONTENT'));
    const writable = demand.take();
    expect(writable).toBeInstanceOf(Promise);
    expect(run.observed).toBe(true);
    response.close();
    await writable;
    expect(run.observed).toBe(false);
  });

  it('gives a failure before the first frame to the route filter untouched, and one after it too (which cuts the response)', () => {
    const before = render();
    before.run.error(new Error('refused'));
    expect(before.outcome.error).toEqual(new Error('refused'));
    expect(before.response.statusCode).toBe(0);
    const after = render();
    after.run.next(event('RUN_STARTED'));
    after.run.error(new Error('fault'));
    expect(after.outcome.error).toEqual(new Error('fault'));
    expect(after.response.log).not.toContain('end');
  });

  it('writes the heartbeat comment and counts it', async () => {
    const { response, run } = render();
    run.next(event('RUN_STARTED'));
    run.next(HEARTBEAT);
    expect(response.chunks.at(-1)).toBe(HEARTBEAT_COMMENT);
    expect(await metrics.exposition()).toMatch(/agui_gateway_heartbeats_total 1\b/);
  });
});
