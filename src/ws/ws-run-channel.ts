import type { BaseEvent } from '@ag-ui/core';
import type { Logger } from '@nestjs/common';
import { WebSocket, type RawData } from 'ws';
import { isAguiError } from '../common/agui-error';
import type { BodyBudget } from '../common/body-budget';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import type { Language, MessageCatalogue } from '../i18n/message-catalogue';
import type { MessageKey } from '../i18n/message-key';
import { drainedOrClosed, TurnCork, type RunSink } from '../runs/run-flow-control';
import type { RunRequest } from '../run-input/run-request';
import type { AdmittedRun } from '../runs/admitted-run';
import { encodeSseFrame, sseRecordOf } from '../wire/sse-frame';
import type { RunRequestOrigin } from '../run-input/run-request-reader';
import type { JsonBody } from '../run-input/read-json-body';
import { LOGGED_ID_LENGTH } from '../logging/truncate-log-ids';
import { splitUtf8Frame } from './split-utf8-frame';
import type { WsConnectionContext } from './ws-connection-context';

/** RFC 6455 close codes used here (docs/architecture.md#decisions item 4). */
export const WsCloseCode = {
  NORMAL: 1000,
  GOING_AWAY: 1001,
  UNSUPPORTED_DATA: 1003,
  SERVER_ERROR: 1011,
} as const;

/** A close reason is at most 123 bytes of UTF-8. */
const MAX_CLOSE_REASON_BYTES = 123;

/**
 * Inputs that may wait on a socket for its active run to end (a resume or the next turn typed ahead). Each
 * may be a 12 MiB message, so the queue stays small; one more input is refused between runs.
 */
export const MAX_QUEUED_WS_INPUTS = 2;

/**
 * Refusals owed that name their input; past this many (a client flooding a long run), the rest are counted
 * per language and name none, so what a socket owes stays bounded.
 */
const MAX_NAMED_REFUSALS = 64;

/** What a channel needs from the run path; the gateway passes the real RunRequestReader and RunService. */
export interface WsRunPort {
  languageOf(body: unknown, acceptLanguage: string | undefined): Language;
  toRunRequest(body: JsonBody, origin: RunRequestOrigin): RunRequest;
  admit(request: RunRequest): Promise<AdmittedRun>;
  /** Streams the run into the sink; returns what to call when the client leaves. */
  stream(run: AdmittedRun, sink: RunSink): () => void;
}

/** The TCP socket under the WebSocket, as the channel uses it: corked per turn, watched for 'drain'. */
export interface WsWire {
  cork(): void;
  uncork(): void;
  readonly writableNeedDrain: boolean;
  once(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

export interface WsRunChannelOptions {
  readonly heartbeatMs: number;
  /**
   * Heartbeats in a row a peer may leave without a pong (or any other frame) before it is taken for gone
   * and closed with 1001 (IAC_CODE_AGUI_WS_MISSED_PONGS, docs/behaviour/agentcore.md#websocket).
   */
  readonly missedPongLimit: number;
  readonly catalogue: MessageCatalogue;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Runs a handler inside the socket's logging context, so the run's log lines carry its ids. */
  readonly inLogContext: (handler: () => void) => void;
  /**
   * The TCP socket under the WebSocket (the upgrade request's): corked for the rest of the event-loop turn
   * on the first frame of the turn, so a burst of events leaves in one write() instead of one each
   * (docs/benchmarks.md, `eventsPerWrite`); and the run's back-pressure: over its high-water mark the run
   * waits for its 'drain'.
   */
  readonly wire?: WsWire;
  /**
   * The process-wide budget of bodies in flight (IAC_CODE_AGUI_BODY_BUDGET_BYTES, docs/behaviour/bounds.md#memory):
   * a message holds its charge from its arrival until it is validated (or dropped); one past it is refused.
   */
  readonly budget?: BodyBudget;
}

/**
 * One AgentCore WebSocket connection: RunAgentInput text frames in, one `data: <json>\n\n` text frame per
 * AG-UI event out (the framing the AWS Python reference sends, docs/behaviour/agentcore.md#websocket), runs one after another on the same
 * socket (a resume, the next turn), unlike the AWS reference server's one run per connection. An input that arrives
 * while a run streams waits until that run's terminal event (at most MAX_QUEUED_WS_INPUTS of them), so no
 * frame of another run is ever interleaved into it; one beyond that is refused with RUN_ERROR THREAD_BUSY
 * (`socketBusy`, naming the refused input's runId), sent between runs for the same reason. Admission refusals are
 * one RUN_ERROR frame and the socket stays open; only a frame that is not a JSON object closes it (1003),
 * and a server fault closes it with 1011. A client that closes mid-run leaves the run, which cancels the A2A
 * task exactly like an SSE disconnect; a client that stops reading holds the run back as over SSE. Created
 * with `new` per connection: it holds that socket's state.
 */
export class WsRunChannel {
  private readonly heartbeat: NodeJS.Timeout;
  /** Pings sent since the peer last showed it is there (a pong or any message). */
  private unansweredPings = 0;
  /** A run is being admitted or streamed on this socket. */
  private isRunActive = false;
  /** Leaves the streaming run (its client gone); set while a run streams. */
  private leaveRun?: () => void;
  /** Inputs received while a run was active, oldest first, each with the language it negotiated. */
  private readonly queued: { body: JsonBody; language: Language; charge: number }[] = [];
  /** Refusals owed for inputs beyond the queue, oldest first, sent once the active run has ended. */
  private readonly refusalsDue: { runId: string; language: Language }[] = [];
  /** Refusals owed beyond MAX_NAMED_REFUSALS, per language. */
  private readonly unnamedRefusalsDue = new Map<Language, number>();
  /** SERVER_BUSY refusals owed for inputs the budget could not hold while a run streamed, per language. */
  private readonly busyRefusalsDue = new Map<Language, number>();
  /** Set when the connection's TCP socket is known (always, except in unit specs without one). */
  private readonly wireCork?: TurnCork;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: WsConnectionContext,
    private readonly runs: WsRunPort,
    private readonly options: WsRunChannelOptions,
  ) {
    const wire = options.wire;
    if (wire)
      this.wireCork = new TurnCork(
        () => wire.cork(),
        () => wire.uncork(),
      );
    // A protocol ping on the heartbeat interval: any frame resets AgentCore's idle timeout (docs/behaviour/interrupts.md#from-input-required-to-interrupts).
    this.heartbeat = setInterval(() => this.ping(), options.heartbeatMs);
    this.heartbeat.unref();
    // Socket events do not run in the connection's async context: each handler enters it again.
    socket.on('message', (data, isBinary) => options.inLogContext(() => this.receive(data, isBinary)));
    socket.on('pong', () => (this.unansweredPings = 0));
    socket.on('close', () => options.inLogContext(() => this.end()));
  }

  private receive(data: RawData, isBinary: boolean): void {
    this.unansweredPings = 0;
    const language = this.fallbackLanguage();
    if (isBinary) return this.close(WsCloseCode.UNSUPPORTED_DATA, 'notAnObject', language);
    const charge = this.takeCharge(byteLengthOf(data));
    if (charge === undefined) return this.refuseBusy(language);
    const raw = textOf(data);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      this.giveBack(charge);
      return this.close(WsCloseCode.UNSUPPORTED_DATA, 'invalidJson', language);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.giveBack(charge);
      return this.close(WsCloseCode.UNSUPPORTED_DATA, 'notAnObject', language);
    }
    const runLanguage = this.runs.languageOf(value, this.context.acceptLanguage);
    if (this.isRunActive) return this.wait({ raw, value }, runLanguage, charge);
    this.isRunActive = true;
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- a socket message handler cannot wait; start() answers every failure on the socket itself
    void this.start({ raw, value }, runLanguage, charge);
  }

  /** The message's charge of the budget, taken; undefined when the budget cannot hold it. */
  private takeCharge(bytes: number): number | undefined {
    const budget = this.options.budget;
    if (!budget) return 0;
    const charge = budget.chargeFor(bytes);
    return budget.tryTake(charge) ? charge : undefined;
  }

  private giveBack(charge: number): void {
    this.options.budget?.give(charge);
  }

  /** SERVER_BUSY for an input the budget could not hold: at once between runs, after the run's end during one. */
  private refuseBusy(language: Language): void {
    if (!this.isRunActive) return this.sendError(ErrorCode.SERVER_BUSY, 'serverBusy', language);
    this.busyRefusalsDue.set(language, (this.busyRefusalsDue.get(language) ?? 0) + 1);
  }

  /** One run at a time per socket: a later input waits for the run's end, or is refused then if too many wait. */
  private wait(body: JsonBody, language: Language, charge: number): void {
    const capacity = this.context.closeAfterRun ? 0 : MAX_QUEUED_WS_INPUTS;
    if (this.queued.length < capacity) {
      this.queued.push({ body, language, charge });
      return;
    }
    this.giveBack(charge);
    if (this.refusalsDue.length < MAX_NAMED_REFUSALS)
      this.refusalsDue.push({ runId: runIdLabelOf(body.value), language });
    else this.unnamedRefusalsDue.set(language, (this.unnamedRefusalsDue.get(language) ?? 0) + 1);
  }

  /** Between runs: the refusals owed go out first, then the oldest waiting input starts (or the socket closes). */
  private runEnded(): void {
    this.isRunActive = false;
    for (const { runId, language } of this.refusalsDue.splice(0))
      this.sendError(ErrorCode.THREAD_BUSY, 'socketBusy', language, { runId });
    for (const [language, count] of this.unnamedRefusalsDue)
      for (let sent = 0; sent < count; sent++)
        this.sendError(ErrorCode.THREAD_BUSY, 'socketBusy', language, { runId: 'null' });
    this.unnamedRefusalsDue.clear();
    for (const [language, count] of this.busyRefusalsDue)
      for (let sent = 0; sent < count; sent++) this.sendError(ErrorCode.SERVER_BUSY, 'serverBusy', language);
    this.busyRefusalsDue.clear();
    if (this.context.closeAfterRun) return this.close(WsCloseCode.NORMAL);
    const next = this.queued.shift();
    if (!next || this.socket.readyState !== WebSocket.OPEN) return;
    this.isRunActive = true;
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- started from the previous run's end; start() answers every failure on the socket itself
    void this.start(next.body, next.language, next.charge);
  }

  private async start(body: JsonBody, language: Language, charge: number): Promise<void> {
    let admitted: AdmittedRun;
    try {
      let request: RunRequest;
      try {
        request = this.runs.toRunRequest(body, {
          face: 'ws',
          language,
          ...(this.context.agentCoreSessionId !== undefined
            ? { agentCoreSessionId: this.context.agentCoreSessionId }
            : {}),
          ...(this.context.principal !== undefined ? { principal: this.context.principal } : {}),
        });
      } finally {
        this.giveBack(charge);
      }
      admitted = await this.runs.admit(request);
    } catch (error) {
      if (!isAguiError(error)) return this.fail(error, 'admission failed', language);
      this.sendError(error.code, error.messageKey, language);
      return this.runEnded();
    }
    this.stream(admitted, language);
  }

  private stream(run: AdmittedRun, language: Language): void {
    const sink: RunSink = {
      // Without its id line unless asked: AgentCore clients strip exactly `data: ` (docs/behaviour/agentcore.md).
      write: (frame) => this.send(this.context.sendsEventIds ? sseRecordOf(frame) : frame.data),
      whenWritable: () => this.whenWritable(),
      end: () => {
        this.leaveRun = undefined;
        this.runEnded();
      },
      // RunService turns every failure into a RUN_ERROR event; a fault here is a bug.
      abort: (error) => {
        this.leaveRun = undefined;
        this.fail(error, 'run stream failed', language);
      },
    };
    this.leaveRun = this.runs.stream(run, sink);
    // The client left while the run was being admitted: starting and leaving at once releases the
    // thread and cancels the task, as for a client that leaves mid-run.
    if (this.socket.readyState !== WebSocket.OPEN) this.end();
  }

  /**
   * Back-pressure as over SSE: once the socket's buffer is over its high-water mark, the run waits for
   * 'drain' (or the close of a client that stopped reading), after flushing what this turn corked.
   */
  private whenWritable(): Promise<void> | undefined {
    const wire = this.options.wire;
    if (!wire?.writableNeedDrain || this.socket.readyState !== WebSocket.OPEN) return undefined;
    this.wireCork?.flush();
    if (!wire.writableNeedDrain) return undefined;
    return drainedOrClosed(wire, this.socket);
  }

  /** One frame per event; a large one as a text frame plus continuation frames, each under 32 KB. */
  private send(text: string): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    // Still one WebSocket message per event, as AgentCore expects; only their socket write is shared.
    this.wireCork?.forThisTurn();
    const pieces = splitUtf8Frame(text);
    pieces.forEach((piece, index) =>
      this.socket.send(piece, { binary: false, fin: index === pieces.length - 1 }),
    );
  }

  private sendError(
    code: ErrorCode,
    key: MessageKey,
    language: Language,
    values: Readonly<Record<string, string>> = {},
  ): void {
    const message = this.options.catalogue.render(key, language, values);
    this.send(
      encodeSseFrame({
        type: 'RUN_ERROR',
        code,
        message,
        timestamp: this.options.clock.now(),
      } as BaseEvent),
    );
  }

  private fail(error: unknown, what: string, language: Language): void {
    this.options.logger.error(
      { msg: `WebSocket ${what}`, code: ErrorCode.INTERNAL_ERROR },
      error instanceof Error ? error.stack : String(error),
    );
    this.close(WsCloseCode.SERVER_ERROR, 'internalError', language);
  }

  private close(code: number, key?: MessageKey, language: Language = 'en'): void {
    this.end();
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.close(
      code,
      key === undefined ? undefined : closeReason(this.options.catalogue.render(key, language)),
    );
  }

  /**
   * A peer that left `missedPongLimit` pings unanswered is gone (a dead network path, a frozen client): it
   * is closed and its run left exactly as if it had closed the socket itself, so the thread is freed, the
   * task cancelled and /ping no longer busy. The close frame may never arrive; `ws` drops the TCP socket
   * after its closing timeout.
   */
  private ping(): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    if (this.unansweredPings >= this.options.missedPongLimit) {
      this.options.logger.warn({
        msg: 'WebSocket peer stopped answering pings: closed',
        missedPongs: this.unansweredPings,
      });
      return this.close(WsCloseCode.GOING_AWAY, 'wsPeerUnresponsive', this.fallbackLanguage());
    }
    this.unansweredPings++;
    this.socket.ping();
  }

  /** Stops the heartbeat, drops the waiting inputs and leaves the active run (RunService's teardown cancels its A2A task). */
  private end(): void {
    clearInterval(this.heartbeat);
    for (const { charge } of this.queued) this.giveBack(charge);
    this.queued.length = 0;
    this.busyRefusalsDue.clear();
    this.refusalsDue.length = 0;
    this.unnamedRefusalsDue.clear();
    const leave = this.leaveRun;
    this.leaveRun = undefined;
    leave?.();
  }

  private fallbackLanguage(): Language {
    return this.runs.languageOf(undefined, this.context.acceptLanguage);
  }
}

/**
 * How a refusal names the input it refused: its `runId` as JSON (cut like an id in a log line, so a
 * 1,024-character id does not fill the message), or `null` for an input without one.
 */
function runIdLabelOf(value: unknown): string {
  const runId = (value as { runId?: unknown }).runId;
  if (typeof runId !== 'string') return 'null';
  return JSON.stringify(runId.length > LOGGED_ID_LENGTH ? `${runId.slice(0, LOGGED_ID_LENGTH)}…` : runId);
}

function byteLengthOf(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, piece) => total + piece.length, 0);
  return data.byteLength;
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/** The message cut to the 123 bytes a close frame allows, between characters. */
function closeReason(message: string): string {
  let reason = message;
  while (Buffer.byteLength(reason, 'utf8') > MAX_CLOSE_REASON_BYTES)
    reason = [...reason].slice(0, -1).join('');
  return reason;
}
