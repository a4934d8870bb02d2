import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * How the proxy breaks one kernel call. The mid-stream modes let the first `afterFrames` SSE records of
 * the real answer through (the task is named), then:
 * - `hang`: the request is read and never answered (no headers, no byte);
 * - `stall`: nothing more is forwarded, pings included, while the connection stays open;
 * - `reset`: the connection is reset;
 * - `garbage`: bytes that are no SSE record of JSON, then the end of the stream;
 * - `error-frame`: a JSON-RPC error record (HTTP 200, as a kernel reports a late failure), then the end;
 * - `http-500`: HTTP 500 with a JSON-RPC error body before any stream.
 */
export type FaultMode = 'hang' | 'stall' | 'reset' | 'garbage' | 'error-frame' | 'http-500';

/** One JSON-RPC call that went through the proxy, and the task it names (`params.id` or the message's `taskId`). */
export interface ProxiedCall {
  readonly method: string;
  readonly taskId?: string;
}

export interface FaultProxy {
  /** Base URL ending with '/'; give it to the gateway as its A2A URL. */
  readonly url: string;
  /** Every JSON-RPC call that reached the proxy so far, oldest first: what one gateway asked of the kernel. */
  calls(): ProxiedCall[];
  /**
   * The next call of `method` is held, unanswered and not forwarded, until the returned function is called.
   * Resolves once that call has arrived.
   */
  hold(method: string): Promise<() => void>;
  /**
   * The next call of `method` is forwarded, and its answer let through up to `afterFrames` SSE records, then
   * paused (the kernel goes on; the bytes wait in the proxy) until the returned function is called.
   */
  holdAnswer(method: string, afterFrames: number): Promise<() => void>;
  /**
   * The next call of the JSON-RPC `method` meets `mode`. Resolves once the fault is being applied: the
   * call reached the proxy (for mid-stream modes: the frames before the fault were forwarded).
   */
  arm(method: string, mode: FaultMode, afterFrames?: number): Promise<void>;
  /** Drops the holds and faults armed whose call has not come (a try that ended without it). */
  disarm(): void;
  /** Sends later calls to another kernel (a kernel restarted on a new port). */
  retarget(upstreamUrl: string): void;
  close(): Promise<void>;
}

interface ArmedFault {
  readonly method: string;
  readonly mode: FaultMode | 'pause';
  readonly afterFrames: number;
  readonly applied: (release: () => void) => void;
}

/** The kernel writes CRLF-framed SSE; a record ends with an empty line. */
const RECORD_END = /\r?\n\r?\n/g;
const GARBAGE = Buffer.from('data: {"jsonrpc":"2.0","result":{\u0000\u00ff not json\r\n\r\n', 'latin1');

/**
 * An HTTP proxy between the gateway and a kernel-like upstream that breaks armed calls the ways a network
 * or a sick kernel does, and passes everything else through untouched (unary calls, CancelTask, the card).
 */
export async function startFaultProxy(upstreamUrl: string): Promise<FaultProxy> {
  let target = new URL(upstreamUrl);
  const armed: ArmedFault[] = [];
  const held: { readonly method: string; readonly arrived: (release: () => void) => void }[] = [];
  const sockets = new Set<Socket>();
  const calls: ProxiedCall[] = [];

  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const call = rpcCallOf(body);
      if (call) calls.push(call);
      const method = call?.method;
      const holdIndex = held.findIndex((hold) => hold.method === method);
      if (holdIndex >= 0) {
        const [hold] = held.splice(holdIndex, 1);
        return hold.arrived(() => forward(request, body, response, undefined));
      }
      const index = armed.findIndex((fault) => fault.method === method);
      const fault = index >= 0 ? armed.splice(index, 1)[0] : undefined;
      if (fault?.mode === 'hang') return fault.applied(() => undefined);
      if (fault?.mode === 'http-500') {
        fault.applied(() => undefined);
        response.writeHead(500, { 'content-type': 'application/json' });
        return response.end(JSON.stringify(rpcError(body)));
      }
      forward(request, body, response, fault);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  /** Passes the call on; with a mid-stream fault, breaks the answer after `afterFrames` records. */
  const forward = (
    request: IncomingMessage,
    body: string,
    response: ServerResponse,
    fault: ArmedFault | undefined,
  ): void => {
    const upstream = httpRequest(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: { ...request.headers, host: target.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!fault) return void answer.pipe(response);
        let text = '';
        const onData = (chunk: Buffer): void => {
          text += chunk.toString('latin1');
          const cut = cutAfterRecords(text, fault.afterFrames);
          if (cut === undefined) return void response.write(chunk);
          // Write only what completes the records before the fault, then break the stream.
          const sent = text.length - chunk.length;
          response.write(Buffer.from(text.slice(sent, cut), 'latin1'));
          answer.off('data', onData);
          if (fault.mode === 'pause') {
            answer.pause();
            return fault.applied(() => {
              response.write(Buffer.from(text.slice(cut), 'latin1'));
              answer.pipe(response);
            });
          }
          answer.destroy();
          breakStream(response, fault, body);
        };
        answer.on('data', onData);
      },
    );
    upstream.on('error', () => response.destroy());
    upstream.end(body);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    calls: () => [...calls],
    hold: (method) => new Promise((arrived) => held.push({ method, arrived })),
    holdAnswer: (method, afterFrames) =>
      new Promise((applied) => armed.push({ method, mode: 'pause', afterFrames, applied })),
    arm: (method, mode, afterFrames = 3) =>
      new Promise<void>((applied) => armed.push({ method, mode, afterFrames, applied: () => applied() })),
    disarm: () => {
      armed.length = 0;
      held.length = 0;
    },
    retarget: (url) => {
      target = new URL(url);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function breakStream(response: ServerResponse, fault: ArmedFault, body: string): void {
  fault.applied(() => undefined);
  switch (fault.mode) {
    case 'stall':
      return; // the socket stays open and silent
    case 'reset':
      return void response.socket?.resetAndDestroy();
    case 'garbage':
      return void response.end(GARBAGE);
    case 'error-frame':
      return void response.end(`data: ${JSON.stringify(rpcError(body))}\r\n\r\n`);
    default:
      return void response.end();
  }
}

/** The index just past the `count`-th complete data record, or undefined while fewer have arrived. */
function cutAfterRecords(text: string, count: number): number | undefined {
  let position = 0;
  let seen = 0;
  for (const match of text.matchAll(RECORD_END)) {
    const record = text.slice(position, match.index);
    position = match.index + match[0].length;
    // `: ping` comments are records too on the wire; only data records carry frames.
    if (record.includes('data:')) seen += 1;
    if (seen === count) return position;
  }
  return undefined;
}

function rpcCallOf(body: string): ProxiedCall | undefined {
  try {
    const { method, params } = JSON.parse(body) as {
      method?: unknown;
      params?: { id?: unknown; message?: { taskId?: unknown } };
    };
    if (typeof method !== 'string') return undefined;
    const taskId = params?.id ?? params?.message?.taskId;
    return typeof taskId === 'string' ? { method, taskId } : { method };
  } catch {
    return undefined;
  }
}

function rpcError(body: string): unknown {
  let id: unknown = null;
  try {
    id = (JSON.parse(body) as { id?: unknown }).id ?? null;
  } catch {
    // not JSON-RPC: answer with a null id
  }
  return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
