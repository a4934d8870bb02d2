import type { BaseEvent } from '@ag-ui/core';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { map, tap } from 'rxjs';
import { AguiGatewayModule } from '../../src/gateway/agui-gateway.module';
import { InMemoryThreadStore } from '../support/fakes/in-memory-thread-store';
import { ScriptedA2aGateway } from '../support/fakes/scripted-a2a-gateway';
import { runInput } from '../support/run-input';
import { postRun } from '../support/sse-client';
import { startModule, type RunningGateway } from '../support/start-gateway';
import { WsRunClient } from '../support/ws-client';

/**
 * The host's run operators (docs/extending.md#run-operators): an audit `tap` and a redaction `map` given to
 * `AguiGatewayModule.forRoot`, applied to every run's events on SSE and on /ws alike.
 */
describe('run operators (AguiGatewayModule option eventOperators)', () => {
  const audited: string[] = [];
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startModule([
      AguiGatewayModule.forRoot({
        environment: {},
        config: {
          stateDir: mkdtempSync(path.join(os.tmpdir(), 'agui-ops-')),
          allowedCwdRoots: [os.tmpdir()],
        },
        threadStore: { useValue: new InMemoryThreadStore() },
        a2aGateway: { useValue: new ScriptedA2aGateway(['card 4111 ', 'is on file.']) },
        eventOperators: [
          tap((event: BaseEvent) => audited.push(event.type)),
          map((event: BaseEvent) =>
            event.type === 'TEXT_MESSAGE_CONTENT'
              ? { ...event, delta: (event as BaseEvent & { delta: string }).delta.replace(/\d/g, '#') }
              : event,
          ),
        ],
      }),
    ]);
  });
  afterAll(() => gateway.close());

  const deltasOf = (events: BaseEvent[]) =>
    events
      .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
      .map((event) => (event as BaseEvent & { delta: string }).delta)
      .join('');

  it('redacts and audits every event of an SSE run', async () => {
    audited.length = 0;
    const response = await postRun(gateway.url, runInput({ threadId: 'ops-sse' }));
    expect(response.status).toBe(200);
    expect(deltasOf(response.events)).toBe('card #### is on file.');
    expect(audited).toEqual(response.events.map((event) => event.type));
    expect(audited.at(-1)).toBe('RUN_FINISHED');
  });

  it('does the same on /ws', async () => {
    audited.length = 0;
    const client = await WsRunClient.open(gateway.url);
    try {
      client.send(runInput({ threadId: 'ops-ws' }));
      const events = await client.nextRun();
      expect(deltasOf(events)).toBe('card #### is on file.');
      expect(audited).toEqual(events.map((event) => event.type));
    } finally {
      client.socket.terminate();
    }
  });
});
