import { WebSocket } from 'ws';
import type { Clock } from '../common/clock';
import type { ErrorCode } from '../common/error-code';
import { runErrorEvent } from '../common/run-error-event';
import type { Language, MessageCatalogue } from '../i18n/message-catalogue';
import type { MessageKey } from '../i18n/message-key';
import { drainedOrClosed, TurnCork } from '../runs/run-flow-control';
import { encodeSseFrame } from '../wire/sse-frame';
import { splitUtf8Frame } from './split-utf8-frame';

/** The TCP socket under the WebSocket, as the channel uses it: corked per turn, watched for 'drain'. */
export interface WsWire {
  cork(): void;
  uncork(): void;
  readonly writableNeedDrain: boolean;
  once(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

/**
 * What a `/ws` socket sends: one WebSocket message per AG-UI event (a large one as a text frame plus
 * continuation frames, each under 32 KB), the socket corked for the rest of the event-loop turn on the
 * first message of the turn, so a burst leaves in one write() (docs/benchmarks.md, `eventsPerWrite`), and
 * the run's back-pressure: over the wire's high-water mark, the promise of its 'drain' (or the close).
 */
export class WsOutbox {
  /** Set when the connection's TCP socket is known (always, except in unit specs without one). */
  private readonly wireCork?: TurnCork;

  constructor(
    private readonly socket: WebSocket,
    private readonly catalogue: MessageCatalogue,
    private readonly clock: Clock,
    private readonly wire?: WsWire,
  ) {
    if (wire)
      this.wireCork = new TurnCork(
        () => wire.cork(),
        () => wire.uncork(),
      );
  }

  send(text: string): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    // Still one WebSocket message per event, as AgentCore expects; only their socket write is shared.
    this.wireCork?.forThisTurn();
    const pieces = splitUtf8Frame(text);
    pieces.forEach((piece, index) =>
      this.socket.send(piece, { binary: false, fin: index === pieces.length - 1 }),
    );
  }

  /** A refusal on the socket: one RUN_ERROR message, in the input's language. */
  sendError(
    code: ErrorCode,
    key: MessageKey,
    language: Language,
    values: Readonly<Record<string, string>> = {},
  ): void {
    const message = this.catalogue.render(key, language, values);
    this.send(encodeSseFrame(runErrorEvent(code, message, this.clock.now())));
  }

  /**
   * Back-pressure as over SSE: once the socket's buffer is over its high-water mark, what to wait for
   * ('drain', or the close of a client that stopped reading), after flushing what this turn corked.
   */
  whenFull(): Promise<void> | undefined {
    const wire = this.wire;
    if (!wire?.writableNeedDrain || this.socket.readyState !== WebSocket.OPEN) return undefined;
    this.wireCork?.flush();
    if (!wire.writableNeedDrain) return undefined;
    return drainedOrClosed(wire, this.socket);
  }
}
