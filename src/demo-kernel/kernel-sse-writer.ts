import type { ServerResponse } from 'node:http';
import type { Clock } from '../common/clock';
import { faultOfEnvelope } from './faults/kernel-fault-marker';
import { formatKernelDataFrame, formatKernelPing, KERNEL_SSE_HEADERS } from './kernel-sse-frames';

export interface KernelSseOptions {
  readonly requestId: unknown;
  readonly pingIntervalMs: number;
  readonly clock: Clock;
  /** Maps an error thrown by the stream to a JSON-RPC `error` object. */
  readonly toJsonRpcError: (error: unknown) => unknown;
}

const CLOSED = Symbol('closed');

/**
 * Writes a JSON-RPC event stream as the kernel does. Like a2a-js's Express handler, the first event is
 * pulled before any header, so an early failure (unknown task, …) is an ordinary JSON-RPC error response;
 * every later failure is an SSE frame carrying a JSON-RPC `error`, with HTTP 200 (docs/behaviour/a2a.md#the-kernels-own-behaviour).
 */
export async function writeKernelSse(
  response: ServerResponse,
  events: AsyncIterable<unknown>,
  options: KernelSseOptions,
): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  const closed = new Promise<typeof CLOSED>((resolve) => response.once('close', () => resolve(CLOSED)));
  // The client may leave while a pull is pending; that pull must not become an unhandled rejection.
  const pull = (): Promise<IteratorResult<unknown> | typeof CLOSED> => {
    const next = iterator.next();
    next.catch(() => undefined);
    return Promise.race([next, closed]);
  };
  const errorEnvelope = (error: unknown) => ({
    jsonrpc: '2.0',
    id: options.requestId,
    error: options.toJsonRpcError(error),
  });
  const sse = new PingingSseWriter(response, options);
  try {
    let next: IteratorResult<unknown> | typeof CLOSED;
    try {
      next = await pull();
    } catch (error) {
      writeJson(response, 200, errorEnvelope(error));
      return;
    }
    if (next === CLOSED) return;
    sse.open();
    try {
      for (; next !== CLOSED && !next.done; next = await pull()) {
        const fault = faultOfEnvelope(next.value);
        if (fault?.kind === 'drop') return sse.drop();
        if (fault?.kind === 'end-stream') return;
        if (fault?.kind === 'rpc-error') {
          const error = { code: fault.code, message: fault.message };
          return sse.write(formatKernelDataFrame({ jsonrpc: '2.0', id: options.requestId, error }));
        }
        sse.write(formatKernelDataFrame(next.value));
      }
    } catch (error) {
      sse.write(formatKernelDataFrame(errorEnvelope(error)));
    }
  } finally {
    sse.end();
    // Client gone or stream cut: keep reading in the background instead of return(). The SDK saves task
    // state only while this generator is read (its ResultManager runs inside it), and the kernel keeps
    // a task's state current after its client left: GetTask after a reconnect must see later frames
    //. Not awaited: a silent task only ends when it is cancelled.
    drainInBackground(iterator);
  }
}

function drainInBackground(iterator: AsyncIterator<unknown>): void {
  void (async () => {
    for (let next = await iterator.next(); !next.done; next = await iterator.next());
  })().catch(() => undefined);
}

/** The SSE side of one response: headers, frames, and a ping after every `pingIntervalMs` of silence. */
class PingingSseWriter {
  private pingTimer: NodeJS.Timeout | undefined;
  private isDropped = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly options: KernelSseOptions,
  ) {}

  open(): void {
    this.response.writeHead(200, KERNEL_SSE_HEADERS);
    this.response.flushHeaders();
    this.schedulePing();
  }

  write(text: string): void {
    if (!this.isWritable()) return;
    this.response.write(text);
    this.schedulePing();
  }

  /**
   * Cuts the connection without the chunked terminator, after what was already written has been
   * flushed: `destroy()` alone would discard the last frames still corked in the socket.
   */
  drop(): void {
    this.isDropped = true;
    this.stopPings();
    const socket = this.response.socket;
    if (!socket) return void this.response.destroy();
    socket.end(() => socket.destroy());
  }

  end(): void {
    this.stopPings();
    if (!this.isDropped && this.isWritable()) this.response.end();
  }

  private isWritable(): boolean {
    return !this.isDropped && !this.response.writableEnded && !this.response.destroyed;
  }

  // Silence-based, not a fixed beat (docs/behaviour/a2a.md#the-kernels-own-behaviour).
  private schedulePing(): void {
    this.stopPings();
    this.pingTimer = setTimeout(
      () => this.write(formatKernelPing(this.options.clock.now())),
      this.options.pingIntervalMs,
    );
  }

  private stopPings(): void {
    if (this.pingTimer) clearTimeout(this.pingTimer);
    this.pingTimer = undefined;
  }
}

export function writeJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}
