import { MAX_QUEUED_WS_INPUTS } from './ws-run-channel';
import { MessageCatalogue } from '../i18n/message-catalogue';
import { event, input, nextTurn, openChannel as open } from '../../test/support/fakes/ws-run-channel-rig';

/** WsRunChannel (docs/behaviour/agentcore.md#websocket): one run at a time per socket, the queue, the refusals owed. */
describe('WsRunChannel', () => {
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
});
