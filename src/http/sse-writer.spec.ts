import { EventEmitter } from 'node:events';
import type { BaseEvent } from '@ag-ui/core';
import type { Response } from 'express';
import { RunMetrics } from '../metrics/run-metrics';
import { FakeWire } from '../../test/support/fakes/fake-wire';
import { encodeSseFrame, type EventFrame } from '../wire/sse-frame';
import { SseWriter } from './sse-writer';
import { HEARTBEAT_COMMENT } from './with-heartbeat';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
let sequence = 0;
/** The frame RunDelivery hands the sink for an event of this type. */
const event = (type: string): EventFrame => ({
  id: `0123456789abcdef.${++sequence}`,
  data: encodeSseFrame({ type, threadId: 't', runId: 'r', timestamp: 1 } as BaseEvent),
});

/** The part of an Express response SseStream uses, recording what is written and in which order. */
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

describe('SseWriter (docs/behaviour/sse.md)', () => {
  let metrics: RunMetrics;
  beforeEach(() => (metrics = new RunMetrics()));
  afterEach(() => metrics.onModuleDestroy());

  const open = (heartbeatMs = 60_000) => {
    const response = new FakeResponse();
    const stream = new SseWriter(metrics).open(response as unknown as Response, heartbeatMs);
    return { response, stream };
  };

  it('answers 200 with the SSE headers and writes each event as one LF-only record, its id first', () => {
    const { response, stream } = open();
    expect(response.statusCode).toBe(200);
    expect(response.headers).toEqual({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    const frame = event('RUN_STARTED');
    stream.write(frame);
    expect(response.chunks).toEqual([
      `id: ${frame.id}\ndata: {"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1}\n\n`,
    ]);
    stream.end();
  });

  it("corks once per turn of the event loop: a burst's frames leave in one socket write (docs/benchmarks.md)", async () => {
    const { response, stream } = open();
    // The headers wait, corked, for the first frame; that frame (RUN_STARTED) leaves with them at once.
    expect(response.log).toEqual(['cork', 'headers']);
    stream.write(event('RUN_STARTED'));
    expect(response.log.slice(2)).toEqual(['write', 'socket.cork', 'uncork', 'socket.uncork']);
    stream.write(event('TEXT_MESSAGE_START'));
    stream.write(event('TEXT_MESSAGE_CONTENT'));
    expect(response.log.slice(6)).toEqual(['cork', 'write', 'write']);
    await nextTurn();
    // The socket's own cork around the response's uncork makes the buffered frames one writev.
    expect(response.log.slice(9)).toEqual(['socket.cork', 'uncork', 'socket.uncork']);
    stream.write(event('RUN_FINISHED'));
    stream.end();
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
    const { response, stream } = open();
    expect(stream.whenWritable()).toBeUndefined();
    stream.write(event('TEXT_MESSAGE_CONTENT'));
    response.writableNeedDrain = true;
    response.socket.writableNeedDrain = true;
    const writable = stream.whenWritable();
    expect(writable).toBeInstanceOf(Promise);
    expect(response.log.slice(-3)).toEqual(['socket.cork', 'uncork', 'socket.uncork']);
    let isWritable = false;
    void writable?.then(() => (isWritable = true));
    await nextTurn();
    expect(isWritable).toBe(false);
    response.socket.drain();
    await writable;
    expect(response.socket.listenerCount('drain')).toBe(0);
    stream.end();
  });

  it('does not wait when flushing the turn was enough to bring the socket under its mark', () => {
    const { response, stream } = open();
    stream.write(event('TEXT_MESSAGE_CONTENT'));
    response.writableNeedDrain = true;
    expect(stream.whenWritable()).toBeUndefined();
    stream.end();
  });

  it('ends a wait when a client that stopped reading closes, and leaves the run once', async () => {
    const { response, stream } = open();
    const leaves: string[] = [];
    stream.onClientGone(() => leaves.push('left'));
    response.socket.writableNeedDrain = true;
    const writable = stream.whenWritable();
    expect(writable).toBeInstanceOf(Promise);
    response.close();
    await writable;
    expect(leaves).toEqual(['left']);
  });

  it('does not leave the run when the response closes after its events are over', () => {
    const { response, stream } = open();
    const leaves: string[] = [];
    stream.onClientGone(() => leaves.push('left'));
    stream.end();
    response.close();
    expect(leaves).toEqual([]);
  });

  it('cuts the response on a fault of the gateway itself', () => {
    const { response, stream } = open();
    stream.abort();
    expect(response.destroyed).toBe(true);
    expect(response.log).not.toContain('end');
  });

  describe('heartbeat', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
    afterEach(() => jest.useRealTimers());

    it('writes the comment after a period of silence, counts it, and stops when the events are over', async () => {
      const { response, stream } = open(1000);
      jest.advanceTimersByTime(999);
      expect(response.chunks).toEqual([]);
      jest.advanceTimersByTime(1);
      expect(response.chunks).toEqual([HEARTBEAT_COMMENT]);
      expect(await metrics.exposition()).toMatch(/agui_gateway_heartbeats_total 1\b/);
      stream.end();
      jest.advanceTimersByTime(10_000);
      expect(response.chunks).toEqual([HEARTBEAT_COMMENT]);
    });

    it('stops when the client closes the response', () => {
      const { response } = open(1000);
      response.close();
      jest.advanceTimersByTime(10_000);
      expect(response.chunks).toEqual([]);
    });
  });
});
