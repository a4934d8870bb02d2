import * as os from 'node:os';
import { runInput } from '../support/run-input';
import type { RunningGateway } from '../support/start-gateway';
import { eventually } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';
import { WsRunClient } from '../support/ws-client';

type LogLine = { level: number; msg?: string; code?: string; [key: string]: unknown };

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { IAC_CODE_AGUI_UPSTREAM: 'demo', IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(), ...extra };
}

/** What a client's garbage leaves in the log: one warn line with ws's code, no error, no stack. */
function expectOneQuietLine(gateway: RunningGateway, code: string): void {
  const lines = gateway.logs.map((line) => JSON.parse(line) as LogLine);
  expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  expect(gateway.logs.filter((line) => /\\n\s+at /.test(line))).toEqual([]);
  expect(lines.filter((line) => line.code === code)).toEqual([
    expect.objectContaining({ level: 40, msg: 'WebSocket client sent an invalid frame', code }),
  ]);
}

/** The /ws edges: client garbage is the client's mistake, and shutdown says goodbye properly. */
describe('AgentCore /ws edges', () => {
  const gateways = useGateway({ env: env(), startBeforeAll: false });

  it.each([
    {
      name: 'invalid UTF-8 in a text frame',
      frame: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      close: 1007,
      code: 'WS_ERR_INVALID_UTF8',
    },
    {
      name: 'a message over the 12 MiB cap',
      frame: Buffer.alloc(12 * 1024 * 1024 + 1, 0x20),
      close: 1009,
      code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
    },
  ])(
    'closes on $name with $close and logs it as one warn line without a stack',
    async ({ frame, close, code }) => {
      const gateway = await gateways.start();
      const client = await WsRunClient.open(gateway.url);
      client.socket.send(frame, { binary: false });
      expect((await client.closed).code).toBe(close);
      expectOneQuietLine(gateway, code);
    },
  );

  it('on shutdown, a client sees its run end with the terminal event, then a 1001 close', async () => {
    const gateway = await gateways.start({ IAC_CODE_AGUI_DRAIN_SECONDS: '0.2' });
    const busy = await WsRunClient.open(gateway.url);
    const idle = await WsRunClient.open(gateway.url);
    busy.send(runInput({ threadId: 'ws-shutdown', runId: 'run-1', text: 'slow' }));
    await busy.waitForEvents(2);
    await gateway.close();
    expect(busy.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
    expect(await busy.closed).toEqual({ code: 1001, reason: '' });
    expect(await idle.closed).toEqual({ code: 1001, reason: '' });
  });
});

describe('AgentCore /ws: peers that stop answering heartbeats', () => {
  // The heartbeat's timer is the behaviour under test: a short one keeps the test short.
  const gateway = useGateway({
    env: env({ IAC_CODE_AGUI_HEARTBEAT_SECONDS: '0.2', IAC_CODE_AGUI_WS_MISSED_PONGS: '2' }),
  });
  const ping = async () => (await (await fetch(`${gateway.url}ping`)).json()) as { status: string };

  it('closes 50 silent peers with 1001, leaves their runs and frees their threads; /ping is Healthy again', async () => {
    const peers = await Promise.all(
      Array.from({ length: 50 }, () => WsRunClient.open(gateway.url, { autoPong: false })),
    );
    peers.forEach((peer, index) =>
      peer.send(runInput({ threadId: `silent-peer-${index}`, runId: 'run-1', text: 'silent' })),
    );
    await Promise.all(peers.map((peer) => peer.waitForEvents(1)));
    expect((await ping()).status).toBe('HealthyBusy');

    const closes = await Promise.all(peers.map((peer) => peer.closed));
    expect(closes).toEqual(
      peers.map(() => ({ code: 1001, reason: 'The WebSocket client stopped answering heartbeats.' })),
    );
    expect((await eventually(ping, (value) => value.status === 'Healthy')).status).toBe('Healthy');
    // Each thread is free: a new run on it is admitted, not THREAD_BUSY.
    const again = await WsRunClient.open(gateway.url);
    for (let index = 0; index < 50; index += 7) {
      again.send(runInput({ threadId: `silent-peer-${index}`, runId: 'run-2', text: 'hello' }));
      expect((await again.nextRun()).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    }
    again.socket.close(1000);
  });
});
