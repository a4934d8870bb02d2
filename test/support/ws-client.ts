import type { BaseEvent } from '@ag-ui/core';
import type { IncomingMessage } from 'node:http';
import { WebSocket, type ClientOptions } from 'ws';

export interface WsClose {
  readonly code: number;
  readonly reason: string;
}

/**
 * A `ws` client for the AgentCore `/ws` route that keeps every text message and parses it the way the AWS
 * reference clients do: strip the SSE `data: ` framing, parse the JSON (docs/behaviour/agentcore.md).
 */
export class WsRunClient {
  readonly messages: string[] = [];
  readonly events: BaseEvent[] = [];
  readonly closed: Promise<WsClose>;
  private cursor = 0;
  private waiters: (() => void)[] = [];

  /** With `eventIds`: each message's `id:` (the run's cursor), in order. */
  readonly ids: string[] = [];

  private constructor(
    readonly socket: WebSocket,
    readonly upgrade: IncomingMessage,
    hasEventIds: boolean,
  ) {
    socket.on('message', (data, isBinary) => {
      const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
      this.messages.push(isBinary ? `<binary ${text.length}>` : text);
      if (isBinary) {
        // Recorded in `messages` only.
      } else if (hasEventIds) {
        const idLine = /^id: ([^\n]+)\n/.exec(text);
        if (!idLine) throw new Error(`a message without its id line: ${text}`);
        this.ids.push(idLine[1]);
        this.events.push(parseFrame(text.slice(idLine[0].length)));
      } else this.events.push(parseFrame(text));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString('utf8') });
        for (const wake of this.waiters.splice(0)) wake();
      }),
    );
  }

  /** Connects to `<gateway url>ws` (plus `query`), resolving once the handshake succeeded. */
  static open(
    gatewayUrl: string,
    options: {
      query?: string;
      headers?: Record<string, string>;
      protocols?: string[];
      /** Asks for the `id:` line on each message (`?eventIds=true`), kept in `ids`. */
      eventIds?: boolean;
      /** `false`: a peer that never answers the gateway's pings (a dead network path). */
      autoPong?: boolean;
    } = {},
  ): Promise<WsRunClient> {
    const query = [options.query, options.eventIds ? 'eventIds=true' : undefined].filter(Boolean).join('&');
    const url = `${gatewayUrl.replace(/^http/, 'ws')}ws${query ? `?${query}` : ''}`;
    const clientOptions: ClientOptions = {
      headers: options.headers ?? {},
      autoPong: options.autoPong ?? true,
    };
    const socket = new WebSocket(url, options.protocols ?? [], clientOptions);
    return new Promise((resolve, reject) => {
      let upgrade: IncomingMessage | undefined;
      socket.once('upgrade', (response) => (upgrade = response));
      socket.once('open', () =>
        resolve(new WsRunClient(socket, upgrade as IncomingMessage, options.eventIds === true)),
      );
      socket.once('error', reject);
    });
  }

  /** Why a handshake was refused: the HTTP status, headers and body of the answer. */
  static refusal(
    gatewayUrl: string,
    options: { headers?: Record<string, string>; protocols?: string[] } = {},
  ): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
    const socket = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}ws`, options.protocols ?? [], {
      headers: options.headers ?? {},
    });
    return new Promise((resolve, reject) => {
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.once('end', () => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
          socket.terminate();
        });
      });
      socket.once('open', () => reject(new Error('the handshake was accepted')));
      socket.once('error', (error) => (socket.readyState === WebSocket.CLOSED ? undefined : reject(error)));
    });
  }

  send(body: unknown): void {
    this.socket.send(typeof body === 'string' ? body : JSON.stringify(body));
  }

  /** The events after the previous call, up to and including the next terminal event. */
  async nextRun(timeoutMs = 15_000): Promise<BaseEvent[]> {
    await this.until(() => this.terminalIndex() >= 0, timeoutMs, 'a terminal event');
    const end = this.terminalIndex() + 1;
    const run = this.events.slice(this.cursor, end);
    this.cursor = end;
    return run;
  }

  /** Waits until `count` events arrived in total. */
  async waitForEvents(count: number, timeoutMs = 10_000): Promise<void> {
    await this.until(() => this.events.length >= count, timeoutMs, `${count} events`);
  }

  private terminalIndex(): number {
    return this.events.findIndex(
      (event, index) => index >= this.cursor && (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR'),
    );
  }

  private async until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline || this.socket.readyState === WebSocket.CLOSED)
        throw new Error(`no ${what} on the socket; got ${this.events.map((e) => e.type).join(',')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** `data: <json>\n\n` → the event; anything else fails the test. */
export function parseFrame(text: string): BaseEvent {
  if (!text.startsWith('data: ') || !text.endsWith('\n\n'))
    throw new Error(`not an SSE-framed event: ${text}`);
  return JSON.parse(text.slice(6, -2)) as BaseEvent;
}
