import { BodyBudget } from '../common/body-budget';
import { MessageCatalogue } from '../i18n/message-catalogue';
import type { RunSink } from '../runs/run-flow-control';
import {
  event,
  FakeSocket,
  input,
  nextTurn,
  openChannel as open,
} from '../../test/support/fakes/ws-run-channel-rig';

/** WsRunChannel's bounds: the body budget, the protocol heartbeat, back-pressure. */
describe('WsRunChannel bounds', () => {
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
