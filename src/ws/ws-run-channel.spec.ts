import { EventEmitter } from 'node:events';
import type { BaseEvent } from '@ag-ui/core';
import { Logger } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type { WebSocket } from 'ws';
import { AguiError } from '../common/agui-error';
import { BodyBudget } from '../common/body-budget';
import { ErrorCode } from '../common/error-code';
import { MessageCatalogue } from '../i18n/message-catalogue';
import type { RunSink } from '../runs/run-flow-control';
import { framesOf, type RunFrame } from '../run-log/run-frames';
import type { RunRequest } from '../run-input/run-request';
import type { AdmittedRun } from '../runs/admitted-run';
import { encodeSseFrame } from '../wire/sse-frame';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { FakeWire } from '../../test/support/fakes/fake-wire';
import type { WsConnectionContext } from './ws-connection-context';
import { MAX_QUEUED_WS_INPUTS, WsRunChannel, type WsRunPort } from './ws-run-channel';

/** The part of a `ws` socket the channel uses, recording what it sends. */
class FakeSocket extends EventEmitter {
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
class ScriptedRuns implements WsRunPort {
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

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const event = (type: string, runId: string) => ({ type, threadId: 't', runId, timestamp: 1 }) as BaseEvent;
const input = (runId: string, lang = 'en') => JSON.stringify({ threadId: 't', runId, lang });

describe('WsRunChannel', () => {
  const open = (
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

  describe('the body budget (docs/behaviour/bounds.md#memory)', () => {
    const busy = new MessageCatalogue().render('serverBusy', 'en');

    it('refuses an input the budget cannot hold with SERVER_BUSY at once between runs, admitting nothing', async () => {
      const budget = new BodyBudget({ bodyBudgetBytes: 1024 });
      budget.tryTake(1000);
      const { socket, runs, receive } = open({}, undefined, budget);
      receive(input('run-1'));
      await runs.settle();
      expect(runs.admitted).toEqual([]);
      expect(socket.events()).toMatchObject([{ type: 'RUN_ERROR', code: 'SERVER_BUSY', message: busy }]);
      expect(budget.bytesInFlight).toBe(1000);
      expect(socket.closedWith).toBeUndefined();
    });

    it('holds three times an input until it is validated, a waiting input until it starts, and gives back on close', async () => {
      const budget = new BodyBudget({ bodyBudgetBytes: 1024 });
      const { socket, runs, receive } = open({}, undefined, budget);
      const heldAtValidation: number[] = [];
      const toRunRequest = runs.toRunRequest.bind(runs);
      runs.toRunRequest = (body) => {
        heldAtValidation.push(budget.bytesInFlight);
        return toRunRequest(body);
      };
      const first = input('run-1');
      receive(first);
      const run = await runs.started('run-1');
      expect(heldAtValidation).toEqual([3 * first.length]);
      expect(budget.bytesInFlight).toBe(0);

      const waiting = input('run-2');
      receive(waiting);
      expect(budget.bytesInFlight).toBe(3 * waiting.length);
      // The budget is spent: this one is refused, after the active run's end, not in the middle of its frames.
      budget.tryTake(1024 - budget.bytesInFlight);
      receive(input('run-3'));
      expect(socket.events()).toEqual([]);
      budget.give(1024 - 3 * waiting.length);

      run.next(event('RUN_FINISHED', 'run-1'));
      run.complete();
      await runs.started('run-2');
      expect(socket.events()).toMatchObject([
        { type: 'RUN_FINISHED', runId: 'run-1' },
        { type: 'RUN_ERROR', code: 'SERVER_BUSY', message: busy },
      ]);
      expect(runs.admitted).toEqual(['run-1', 'run-2']);
      expect(budget.bytesInFlight).toBe(0);

      receive(input('run-4'));
      expect(budget.bytesInFlight).toBe(3 * input('run-4').length);
      socket.emit('close');
      expect(budget.bytesInFlight).toBe(0);
    });
  });

  describe('heartbeat', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
    afterEach(() => jest.useRealTimers());
    const HEARTBEAT = { heartbeatMs: 1_000, missedPongLimit: 2 };

    it('closes a peer that leaves the limit of pings unanswered with 1001, and leaves its run', async () => {
      const { socket, runs, receive } = open({}, HEARTBEAT);
      receive(input('run-1'));
      const run = await runs.started('run-1');
      jest.advanceTimersByTime(2 * HEARTBEAT.heartbeatMs);
      expect([socket.pings, socket.closedWith]).toEqual([2, undefined]);
      jest.advanceTimersByTime(HEARTBEAT.heartbeatMs);
      expect(socket.closedWith).toBe(1001);
      expect(socket.closeReason).toBe('The WebSocket client stopped answering heartbeats.');
      expect(run.observed).toBe(false);
      jest.advanceTimersByTime(10 * HEARTBEAT.heartbeatMs);
      expect(socket.pings).toBe(2);
    });

    it.each([
      ['a pong', (socket: FakeSocket) => socket.emit('pong', Buffer.alloc(0))],
      ['any message', (socket: FakeSocket) => socket.emit('message', Buffer.from(input('run-2')), false)],
    ])('counts again from zero after %s', (_what, answer) => {
      const { socket } = open({}, HEARTBEAT);
      for (let beat = 0; beat < 10; beat++) {
        jest.advanceTimersByTime(HEARTBEAT.heartbeatMs);
        answer(socket);
      }
      expect([socket.pings, socket.closedWith]).toEqual([10, undefined]);
    });
  });

  it('lets an input sent while a run streams wait for its terminal event, never interleaving a frame', async () => {
    const { socket, runs, receive } = open();
    receive(input('run-1'));
    const first = await runs.started('run-1');
    first.next(event('RUN_STARTED', 'run-1'));
    receive(input('run-2'));
    await runs.settle();
    expect(runs.admitted).toEqual(['run-1']);
    first.next(event('RUN_FINISHED', 'run-1'));
    first.complete();
    const second = await runs.started('run-2');
    second.next(event('RUN_STARTED', 'run-2'));
    second.next(event('RUN_FINISHED', 'run-2'));
    second.complete();
    expect(socket.events().map((e) => `${e.type}:${e.runId}`)).toEqual([
      'RUN_STARTED:run-1',
      'RUN_FINISHED:run-1',
      'RUN_STARTED:run-2',
      'RUN_FINISHED:run-2',
    ]);
    expect(socket.closedWith).toBeUndefined();
  });

  it("corks the wire once per turn of the event loop: a burst's messages share one socket write", async () => {
    const { socket, runs, receive } = open();
    receive(input('run-1'));
    const run = await runs.started('run-1');
    run.next(event('RUN_STARTED', 'run-1'));
    run.next(event('TEXT_MESSAGE_START', 'run-1'));
    run.next(event('TEXT_MESSAGE_END', 'run-1'));
    expect(socket.log).toEqual(['cork', 'send', 'send', 'send']);
    await nextTurn();
    run.next(event('RUN_FINISHED', 'run-1'));
    await nextTurn();
    expect(socket.log).toEqual(['cork', 'send', 'send', 'send', 'uncork', 'cork', 'send', 'uncork']);
    // Still one WebSocket message per event.
    expect(socket.events().map((e) => e.type)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
  });

  it('refuses an input beyond the queue between runs, in its own language, about the socket', async () => {
    const { socket, runs, receive } = open();
    receive(input('run-1'));
    const first = await runs.started('run-1');
    first.next(event('RUN_STARTED', 'run-1'));
    for (let index = 0; index < MAX_QUEUED_WS_INPUTS; index++) receive(input(`queued-${index}`));
    receive(input('one-too-many', 'de'));
    await runs.settle();
    expect(socket.events().map((e) => e.type)).toEqual(['RUN_STARTED']);

    first.next(event('RUN_FINISHED', 'run-1'));
    first.complete();
    await runs.started('queued-0');
    expect(socket.events().slice(1)).toEqual([
      { type: 'RUN_FINISHED', threadId: 't', runId: 'run-1', timestamp: 1 },
      {
        type: 'RUN_ERROR',
        code: 'THREAD_BUSY',
        message: new MessageCatalogue().render('socketBusy', 'de', { runId: '"one-too-many"' }),
        timestamp: expect.any(Number),
      },
    ]);
    expect(socket.events()[2].message).toMatch(/^Die Eingabe mit runId "one-too-many" wurde abgelehnt/);
    runs.streams.get('queued-0')?.complete();
    await runs.started(`queued-${MAX_QUEUED_WS_INPUTS - 1}`);
    expect(runs.admitted).toEqual([
      'run-1',
      ...Array.from({ length: MAX_QUEUED_WS_INPUTS }, (_, i) => `queued-${i}`),
    ]);
  });

  it('owes a flooding client one refusal per input, naming the first 64 and counting the rest', async () => {
    const { socket, runs, receive } = open();
    receive(input('run-1'));
    const first = await runs.started('run-1');
    for (let i = 0; i < MAX_QUEUED_WS_INPUTS + 70; i++) receive(input(`flood-${i}`));
    first.complete();
    await runs.started('flood-0');
    const messages = socket.events().map((event) => String(event.message));
    expect(messages).toHaveLength(70);
    expect(messages[0]).toMatch(/^The input with runId "flood-2" was refused/);
    expect(messages[63]).toMatch(/^The input with runId "flood-65" was refused/);
    expect(messages.slice(64)).toEqual(
      Array(6).fill(new MessageCatalogue().render('socketBusy', 'en', { runId: 'null' })),
    );
  });

  it('goes on with the next waiting input after an admission refusal', async () => {
    const { socket, runs, receive } = open();
    receive(input('run-1'));
    const first = await runs.started('run-1');
    receive(input('refuse-2'));
    receive(input('run-3'));
    first.complete();
    await runs.started('run-3');
    expect(socket.events()).toEqual([expect.objectContaining({ type: 'RUN_ERROR', code: 'THREAD_BUSY' })]);
  });

  it('drops the waiting inputs when the socket closes', async () => {
    const { socket, runs, receive } = open();
    receive(input('run-1'));
    const first = await runs.started('run-1');
    receive(input('run-2'));
    socket.readyState = 3;
    socket.emit('close');
    expect(first.observed).toBe(false);
    first.complete();
    await runs.settle();
    expect(runs.admitted).toEqual(['run-1']);
  });

  it('queues nothing with closeAfterRun: a second input is refused after the run, then the socket closes', async () => {
    const { socket, runs, receive } = open({ closeAfterRun: true });
    receive(input('run-1'));
    const first = await runs.started('run-1');
    receive(input('run-2'));
    first.next(event('RUN_FINISHED', 'run-1'));
    first.complete();
    await runs.settle();
    expect(socket.events().map((e) => e.type)).toEqual(['RUN_FINISHED', 'RUN_ERROR']);
    expect(socket.closedWith).toBe(1000);
    expect(runs.admitted).toEqual(['run-1']);
  });

  describe('back-pressure (docs/behaviour/sse.md#back-pressure, the same on /ws)', () => {
    it("holds the run back while the socket's buffer is over its high-water mark, flushing the turn first, until drain", async () => {
      const { socket, runs, receive, wire } = open();
      receive(input('run-1'));
      const run = await runs.started('run-1');
      const sink = runs.sinks.get('run-1') as RunSink;
      run.next(event('TEXT_MESSAGE_START', 'run-1'));
      expect(sink.whenWritable()).toBeUndefined();
      await nextTurn();
      socket.log.length = 0;
      wire.writableNeedDrain = true;
      run.next(event('TEXT_MESSAGE_CONTENT', 'run-1'));
      // The run asks after each frame, as RunDelivery does: the channel held it with the wire's drain.
      const writable = sink.whenWritable();
      expect(writable).toBeInstanceOf(Promise);
      // What this turn corked went out before the wait.
      expect(socket.log).toEqual(['cork', 'send', 'uncork']);
      let isWritable = false;
      void writable?.then(() => (isWritable = true));
      await nextTurn();
      expect(isWritable).toBe(false);
      // The turn's own uncork found nothing left to flush.
      expect(socket.log).toEqual(['cork', 'send', 'uncork']);
      wire.drain();
      await writable;
      expect(wire.listenerCount('drain')).toBe(0);
      expect(socket.listenerCount('close')).toBe(1);
    });

    it('ends the wait when a client that stopped reading closes the socket, and leaves its run', async () => {
      const { socket, runs, receive, wire } = open();
      receive(input('run-1'));
      const run = await runs.started('run-1');
      wire.writableNeedDrain = true;
      run.next(event('TEXT_MESSAGE_CONTENT', 'run-1'));
      const writable = runs.sinks.get('run-1')?.whenWritable();
      expect(writable).toBeInstanceOf(Promise);
      socket.readyState = 3;
      socket.emit('close');
      await writable;
      expect(run.observed).toBe(false);
    });

    it('never waits on a socket that is already closed', async () => {
      const { socket, runs, receive, wire } = open();
      receive(input('run-1'));
      const run = await runs.started('run-1');
      wire.writableNeedDrain = true;
      socket.readyState = 3;
      run.next(event('TEXT_MESSAGE_CONTENT', 'run-1'));
      expect(runs.sinks.get('run-1')?.whenWritable()).toBeUndefined();
    });
  });
});
