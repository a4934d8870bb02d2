import * as os from 'node:os';
import { runInput } from '../support/run-input';
import type { RunningGateway } from '../support/start-gateway';
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
