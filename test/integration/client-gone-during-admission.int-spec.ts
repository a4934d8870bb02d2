import type { Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AguiGatewayModule } from '../../src/gateway/agui-gateway.module';
import type { ThreadState } from '../../src/threads/thread-state';
import { InMemoryThreadStore } from '../support/fakes/in-memory-thread-store';
import { ScriptedA2aGateway } from '../support/fakes/scripted-a2a-gateway';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import { startModule, type RunningGateway } from '../support/start-gateway';

/** A store whose next save waits until the test lets it go: admission is held there. */
class HeldStore extends InMemoryThreadStore {
  private held?: { reached: () => void; release: Promise<void> };

  holdNextSave(release: Promise<void>): Promise<void> {
    return new Promise((reached) => (this.held = { reached, release }));
  }

  override async save(state: ThreadState): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (held) {
      held.reached();
      await held.release;
    }
    return super.save(state);
  }
}

/**
 * A client that leaves while its run is being admitted gets no response, and Nest never subscribes to the
 * run's Observable: the run must still be started and left at once (docs/architecture.md#a-run), or its
 * thread's busy slot would never be released.
 */
describe('a client gone during admission', () => {
  const store = new HeldStore();
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startModule([
      AguiGatewayModule.forRoot({
        environment: {},
        config: {
          stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-gone-')),
          allowedCwdRoots: [os.tmpdir()],
        },
        threadStore: { useValue: store },
        a2aGateway: { useValue: new ScriptedA2aGateway(['Hello.']) },
      }),
    ]);
  });
  afterAll(() => gateway.close());

  it('leaves the thread free and the service idle', async () => {
    let release!: () => void;
    const saving = store.holdNextSave(new Promise((resolve) => (release = resolve)));
    const closed = new Promise<void>((resolve) =>
      gateway.app
        .getHttpServer()
        .once('connection', (socket: Socket) => socket.once('close', () => resolve())),
    );
    const client = new AbortController();
    const request = fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(runInput({ threadId: 'gone-1', runId: 'run-gone' })),
      signal: client.signal,
    }).catch(() => undefined);
    await saving;
    client.abort();
    await closed;
    release();
    await request;
    const next = await eventually(
      () => postRun(gateway.url, runInput({ threadId: 'gone-1', runId: 'run-after' })),
      (response) => response.status === 200,
    );
    expect(next.events.at(-1)?.type).toBe('RUN_FINISHED');
    const ping = await eventually(
      async () => (await fetch(`${gateway.url}ping`)).json() as Promise<{ status: string }>,
      (body) => body.status === 'Healthy',
    );
    expect(ping.status).toBe('Healthy');
  });
});
