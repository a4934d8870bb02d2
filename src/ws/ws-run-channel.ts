import type { BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { Logger } from '@nestjs/common';
import type { Observable, Subscription } from 'rxjs';
import { WebSocket, type RawData } from 'ws';
import { isAguiError } from '../common/agui-error';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import type { Language, MessageCatalogue } from '../i18n/message-catalogue';
import type { MessageKey } from '../i18n/message-key';
import type { AdmittedRun, RunRequest } from '../runs/run-request';
import type { RunRequestOrigin } from '../runs/run-request-reader';
import type { JsonBody } from '../runs/read-json-body';
import { splitUtf8Frame } from './split-utf8-frame';
import type { WsConnectionContext } from './ws-connection-context';

/** RFC 6455 close codes used here (DESIGN "Faces", issue #6 item 4). */
export const WsCloseCode = {
  NORMAL: 1000,
  GOING_AWAY: 1001,
  UNSUPPORTED_DATA: 1003,
  SERVER_ERROR: 1011,
} as const;

/** A close reason is at most 123 bytes of UTF-8. */
const MAX_CLOSE_REASON_BYTES = 123;

/** What a channel needs from the run path; the gateway passes the real RunRequestReader and RunService. */
export interface WsRunPort {
  languageOf(body: unknown, acceptLanguage: string | undefined): Language;
  toRunRequest(body: JsonBody, origin: RunRequestOrigin): RunRequest;
  admit(request: RunRequest): Promise<AdmittedRun>;
  stream(run: AdmittedRun): Observable<BaseEvent>;
}

export interface WsRunChannelOptions {
  readonly heartbeatMs: number;
  readonly catalogue: MessageCatalogue;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Runs a handler inside the socket's logging context, so the run's log lines carry its ids. */
  readonly inLogContext: (handler: () => void) => void;
}

/**
 * One AgentCore WebSocket connection: RunAgentInput text frames in, one `data: <json>\n\n` text frame per
 * AG-UI event out (the framing the AWS Python reference sends, §5.2), runs one after another on the same
 * socket (a resume, the next turn), unlike the reference's one run per connection. Admission refusals are
 * one RUN_ERROR frame and the socket stays open; only a frame that is not a JSON object closes it (1003),
 * and a server fault closes it with 1011. A client that closes mid-run unsubscribes, which cancels the A2A
 * task exactly like an SSE disconnect. Created with `new` per connection: it holds that socket's state.
 */
export class WsRunChannel {
  private readonly encoder = new EventEncoder({ accept: 'text/event-stream' });
  private readonly heartbeat: NodeJS.Timeout;
  /** A run is being admitted or streamed on this socket. */
  private isRunActive = false;
  private subscription?: Subscription;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: WsConnectionContext,
    private readonly runs: WsRunPort,
    private readonly options: WsRunChannelOptions,
  ) {
    // A protocol ping on the heartbeat interval: any frame resets AgentCore's idle timeout (§5.1).
    this.heartbeat = setInterval(() => this.ping(), options.heartbeatMs);
    this.heartbeat.unref();
    // Socket events do not run in the connection's async context: each handler enters it again.
    socket.on('message', (data, isBinary) => options.inLogContext(() => this.receive(data, isBinary)));
    socket.on('close', () => options.inLogContext(() => this.end()));
  }

  private receive(data: RawData, isBinary: boolean): void {
    const language = this.fallbackLanguage();
    if (isBinary) return this.close(WsCloseCode.UNSUPPORTED_DATA, 'notAnObject', language);
    const raw = textOf(data);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return this.close(WsCloseCode.UNSUPPORTED_DATA, 'invalidJson', language);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return this.close(WsCloseCode.UNSUPPORTED_DATA, 'notAnObject', language);
    const runLanguage = this.runs.languageOf(value, this.context.acceptLanguage);
    // One run at a time per socket; the socket's own run holds the thread, so this is THREAD_BUSY.
    if (this.isRunActive) return this.sendError(ErrorCode.THREAD_BUSY, 'threadBusy', runLanguage);
    this.isRunActive = true;
    void this.start({ raw, value }, runLanguage);
  }

  private async start(body: JsonBody, language: Language): Promise<void> {
    let admitted: AdmittedRun;
    try {
      const request = this.runs.toRunRequest(body, {
        face: 'ws',
        language,
        ...(this.context.agentCoreSessionId !== undefined
          ? { agentCoreSessionId: this.context.agentCoreSessionId }
          : {}),
      });
      admitted = await this.runs.admit(request);
    } catch (error) {
      this.isRunActive = false;
      if (!isAguiError(error)) return this.fail(error, 'admission failed', language);
      this.sendError(error.code, error.messageKey, language);
      if (this.context.closeAfterRun) this.close(WsCloseCode.NORMAL);
      return;
    }
    this.stream(admitted, language);
  }

  private stream(run: AdmittedRun, language: Language): void {
    let isFinished = false;
    const subscription = this.runs.stream(run).subscribe({
      next: (event) => this.send(this.encoder.encodeSSE(event)),
      // RunService turns every failure into a RUN_ERROR event; an error here is a bug.
      error: (error: unknown) => {
        isFinished = true;
        this.fail(error, 'run stream failed', language);
      },
      complete: () => {
        isFinished = true;
        this.subscription = undefined;
        this.isRunActive = false;
        if (this.context.closeAfterRun) this.close(WsCloseCode.NORMAL);
      },
    });
    if (isFinished) return;
    this.subscription = subscription;
    // The client left while the run was being admitted: subscribing and leaving at once releases the
    // thread and cancels the task, as for a client that leaves mid-run.
    if (this.socket.readyState !== WebSocket.OPEN) this.end();
  }

  /** One frame per event; a large one as a text frame plus continuation frames, each under 32 KB. */
  private send(text: string): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const pieces = splitUtf8Frame(text);
    pieces.forEach((piece, index) =>
      this.socket.send(piece, { binary: false, fin: index === pieces.length - 1 }),
    );
  }

  private sendError(code: ErrorCode, key: MessageKey, language: Language): void {
    const message = this.options.catalogue.render(key, language);
    this.send(
      this.encoder.encodeSSE({
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

  private ping(): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.ping();
  }

  /** Stops the heartbeat and leaves the active run (RunService's teardown cancels its A2A task). */
  private end(): void {
    clearInterval(this.heartbeat);
    const subscription = this.subscription;
    this.subscription = undefined;
    subscription?.unsubscribe();
  }

  private fallbackLanguage(): Language {
    return this.runs.languageOf(undefined, this.context.acceptLanguage);
  }
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
