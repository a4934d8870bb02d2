import { EventEmitter } from 'node:events';
import type { BaseEvent } from '@ag-ui/core';
import { Logger } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type { WebSocket } from 'ws';
import { AguiError } from '../../../src/common/agui-error';
import { BodyBudget } from '../../../src/common/body-budget';
import { ErrorCode } from '../../../src/common/error-code';
import { MessageCatalogue } from '../../../src/i18n/message-catalogue';
import type { RunSink } from '../../../src/runs/run-flow-control';
import { framesOf, type RunFrame } from '../../../src/run-log/run-frames';
import type { RunRequest } from '../../../src/run-input/run-request';
import type { AdmittedRun } from '../../../src/runs/admitted-run';
import { encodeSseFrame } from '../../../src/wire/sse-frame';
import { FakeClock } from '../../../src/../test/support/fakes/fake-clock';
import { FakeWire } from '../../../src/../test/support/fakes/fake-wire';
import type { WsConnectionContext } from '../../../src/ws/ws-connection-context';
import { WsRunChannel, type WsRunPort } from '../../../src/ws/ws-run-channel';

/** The part of a `ws` socket the channel uses, recording what it sends. */
export class FakeSocket extends EventEmitter {
  readyState = 1;
  readonly sent: Buffer[] = [];
  closedWith?: number;
  closeReason?: string;
  pings = 0;
  /** Sends and the wire's cork/uncork calls, in order. */
  readonly log: string[] = [];
  send(piece: Buffer): void {
    this.sent.push(piece);
    this.log.push('send');
  }
  close(code: number, reason?: string): void {
    this.closedWith = code;
    this.closeReason = reason;
    this.readyState = 3;
  }
  ping(): void {
    this.pings++;
  }
  /** What the client sees, one parsed event per frame. */
  events(): (BaseEvent & Record<string, unknown>)[] {
    return this.sent.map((frame) => JSON.parse(frame.toString('utf8').replace(/^data: /, '')));
  }
}

/** Each admitted run streams from a Subject the test drives; admission refuses a runId starting "refuse". */
export class ScriptedRuns implements WsRunPort {
  readonly streams = new Map<string, Subject<BaseEvent>>();
  /** The sink the channel gave each run. */
  readonly sinks = new Map<string, RunSink>();
  readonly admitted: string[] = [];
  languageOf(body: unknown): 'en' | 'de' {
    return (body as { lang?: string } | undefined)?.lang === 'de' ? 'de' : 'en';
  }
  toRunRequest(body: { value: unknown }): RunRequest {
    return { input: body.value } as unknown as RunRequest;
  }
  admit(request: RunRequest): Promise<AdmittedRun> {
    const { runId } = request.input;
    if (runId.startsWith('refuse')) return Promise.reject(new AguiError(ErrorCode.THREAD_BUSY, 'threadBusy'));
    this.admitted.push(runId);
    this.streams.set(runId, new Subject<BaseEvent>());
    return Promise.resolve({ runId } as AdmittedRun);
  }
  /** The run as RunService gives it: its frames over the sink-level form below. */
  events(run: AdmittedRun): Observable<RunFrame> {
    return framesOf((sink) => this.stream(run, sink));
  }

  /** Forwards the run's Subject into the channel's sink, as RunService's delivery does. */
  stream(run: AdmittedRun, sink: RunSink): () => void {
    this.sinks.set(run.runId, sink);
    const subscription = (this.streams.get(run.runId) as Subject<BaseEvent>).subscribe({
      next: (value) => sink.write({ id: 'unused', data: encodeSseFrame(value) }),
      error: (error: unknown) => sink.abort(error),
      complete: () => sink.end(),
    });
    return () => subscription.unsubscribe();
  }
  /** Resolves once `runId` has been admitted and subscribed (checked once per turn of the event loop). */
  async started(runId: string): Promise<Subject<BaseEvent>> {
    while (!this.streams.get(runId)?.observed) await nextTurn();
    return this.streams.get(runId) as Subject<BaseEvent>;
  }
  /** Lets every admission already started settle (each resolves or rejects at once). */
  async settle(): Promise<void> {
    await nextTurn();
  }
}

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
export const event = (type: string, runId: string) =>
  ({ type, threadId: 't', runId, timestamp: 1 }) as BaseEvent;
export const input = (runId: string, lang = 'en') => JSON.stringify({ threadId: 't', runId, lang });

/** A channel over fakes: `receive` is a text message from the client. */
export const openChannel = (
  context: Partial<WsConnectionContext> = {},
  heartbeat = { heartbeatMs: 60_000, missedPongLimit: 2 },
  budget?: BodyBudget,
) => {
  const socket = new FakeSocket();
  const wire = new FakeWire(socket.log);
  const runs = new ScriptedRuns();
  new WsRunChannel(
    socket as unknown as WebSocket,
    { requestId: 'r', closeAfterRun: false, ...context },
    runs,
    {
      ...heartbeat,
      catalogue: new MessageCatalogue(),
      clock: new FakeClock(),
      logger: new Logger('WsRunChannelSpec'),
      inLogContext: (handler) => handler(),
      wire,
      ...(budget ? { budget } : {}),
    },
  );
  const receive = (text: string) => socket.emit('message', Buffer.from(text), false);
  return { socket, runs, receive, wire };
};
