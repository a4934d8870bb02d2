import type { Logger } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { WebSocket, type RawData } from 'ws';
import { isAguiError } from '../common/agui-error';
import type { BodyBudget } from '../common/body-budget';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import type { Language, MessageCatalogue } from '../i18n/message-catalogue';
import type { MessageKey } from '../i18n/message-key';
import type { RunFrame } from '../run-log/run-frames';
import type { RunRequest } from '../run-input/run-request';
import type { AdmittedRun } from '../runs/admitted-run';
import { sseRecordOf } from '../wire/sse-frame';
import type { RunRequestOrigin } from '../run-input/run-request-reader';
import type { JsonBody } from '../run-input/read-json-body';
import { closeReason, WsCloseCode } from './ws-close';
import { byteLengthOf, runIdLabelOf, textOf } from './ws-input-text';
import { WsOutbox, type WsWire } from './ws-outbox';
import { WsRefusalsDue } from './ws-refusals-due';
import type { WsConnectionContext } from './ws-connection-context';

export { WsCloseCode } from './ws-close';
export type { WsWire } from './ws-outbox';

/**
 * Inputs that may wait on a socket for its active run to end (a resume or the next turn typed ahead). Each
 * may be a 12 MiB message, so the queue stays small; one more input is refused between runs.
 */
export const MAX_QUEUED_WS_INPUTS = 2;

/** What a channel needs from the run path; the gateway passes the real RunRequestReader and RunService. */
export interface WsRunPort {
  languageOf(body: unknown, acceptLanguage: string | undefined): Language;
  toRunRequest(body: JsonBody, origin: RunRequestOrigin): RunRequest;
  admit(request: RunRequest): Promise<AdmittedRun>;
  /** The run as its Observable of frames (RunService.events): subscribing starts it, unsubscribing leaves it. */
  events(run: AdmittedRun): Observable<RunFrame>;
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
  /** The TCP socket under the WebSocket (the upgrade request's): corked per turn, and the run's back-pressure. */
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
  /** Refusals owed for inputs while a run is active, sent once it has ended. */
  private readonly refusalsDue = new WsRefusalsDue();
  private readonly outbox: WsOutbox;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: WsConnectionContext,
    private readonly runs: WsRunPort,
    private readonly options: WsRunChannelOptions,
  ) {
    this.outbox = new WsOutbox(socket, options.catalogue, options.clock, options.wire);
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
    this.refusalsDue.serverBusy(language);
  }

  /** One run at a time per socket: a later input waits for the run's end, or is refused then if too many wait. */
  private wait(body: JsonBody, language: Language, charge: number): void {
    const capacity = this.context.closeAfterRun ? 0 : MAX_QUEUED_WS_INPUTS;
    if (this.queued.length < capacity) {
      this.queued.push({ body, language, charge });
      return;
    }
    this.giveBack(charge);
    this.refusalsDue.socketBusy(runIdLabelOf(body.value), language);
  }

  /** Between runs: the refusals owed go out first, then the oldest waiting input starts (or the socket closes). */
  private runEnded(): void {
    this.isRunActive = false;
    this.refusalsDue.sendAll((code, key, language, values) => this.sendError(code, key, language, values));
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

  /**
   * The run's frames, each as one message: without its id line unless asked, as AgentCore clients strip
   * exactly `data: ` (docs/behaviour/agentcore.md); over the wire's mark the frame's demand holds the run.
   */
  private stream(run: AdmittedRun, language: Language): void {
    const withIds = this.context.sendsEventIds;
    const subscription = this.runs.events(run).subscribe({
      next: (frame) => {
        this.outbox.send(withIds ? sseRecordOf(frame) : frame.data);
        const full = this.outbox.whenFull();
        if (full) frame.demand.hold(full);
      },
      complete: () => {
        this.leaveRun = undefined;
        this.runEnded();
      },
      // A run's failure is a RUN_ERROR event; an error of its Observable is a fault of the gateway.
      error: (error: unknown) => {
        this.leaveRun = undefined;
        this.fail(error, 'run stream failed', language);
      },
    });
    if (!subscription.closed) this.leaveRun = () => subscription.unsubscribe();
    // The client left while the run was being admitted: starting and leaving at once releases the
    // thread and cancels the task, as for a client that leaves mid-run.
    if (this.socket.readyState !== WebSocket.OPEN) this.end();
  }

  private sendError(
    code: ErrorCode,
    key: MessageKey,
    language: Language,
    values: Readonly<Record<string, string>> = {},
  ): void {
    this.outbox.sendError(code, key, language, values);
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
    this.refusalsDue.clear();
    const leave = this.leaveRun;
    this.leaveRun = undefined;
    leave?.();
  }

  private fallbackLanguage(): Language {
    return this.runs.languageOf(undefined, this.context.acceptLanguage);
  }
}
