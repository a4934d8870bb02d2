import type { BaseEvent } from '@ag-ui/core';
import { RunService } from '../../src/runs/run.service';
import { expectConformantEvents } from '../support/agui-conformance';
import { RawWsConnection, textMessagesOf } from '../support/raw-ws-frames';
import { runInput } from '../support/run-input';
import { eventually } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';
import { parseFrame, WsRunClient } from '../support/ws-client';

const TOKEN = 'ws-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const SESSION_HEADER = 'x-amzn-bedrock-agentcore-runtime-session-id';

type Interrupt = { id: string };
const typesOf = (events: BaseEvent[]) => events.map((event) => event.type);
const interruptsOf = (events: BaseEvent[]): Interrupt[] =>
  (events.at(-1) as { outcome?: { interrupts?: Interrupt[] } }).outcome?.interrupts ?? [];

/** AgentCore's /ws against the kernel-like upstream process. */
describe('AgentCore WebSocket /ws', () => {
  const gateway = useGateway({
    upstream: true,
    env: { IAC_CODE_AGUI_AUTH_TOKEN: TOKEN, IAC_CODE_AGUI_HEARTBEAT_SECONDS: '1' },
  });
  const clients: WsRunClient[] = [];
  const open = async (options: Parameters<typeof WsRunClient.open>[1] = {}) => {
    const client = await WsRunClient.open(gateway.url, { headers: AUTH, ...options });
    clients.push(client);
    return client;
  };

  afterEach(() => {
    for (const client of clients.splice(0)) client.socket.terminate();
  });

  it('runs a text turn, then an interrupt and its resume, on one socket', async () => {
    const client = await open({ headers: { ...AUTH, [SESSION_HEADER]: 'session-ws-1' } });
    expect(client.upgrade.headers[SESSION_HEADER]).toBe('session-ws-1');
    expect(client.upgrade.headers['x-amzn-bedrock-agentcore-runtime-request-id']).toEqual(expect.any(String));

    client.send(runInput({ threadId: 'ws-multi', runId: 'run-1', text: 'Create a VPC template' }));
    const text = await client.nextRun();
    await expectConformantEvents(text);
    expect(text.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(typesOf(text)).toContain('TEXT_MESSAGE_CONTENT');
    // Every message is one SSE-framed event, as the AWS Python reference sends.
    expect(client.messages.every((message) => /^data: \{.*\}\n\n$/s.test(message))).toBe(true);

    const iacCode = { rosInvocationId: 'invocation-ws-2' };
    client.send(runInput({ threadId: 'ws-multi', runId: 'run-2', text: 'permission please', iacCode }));
    const interrupted = await client.nextRun();
    await expectConformantEvents(interrupted);
    expect(interrupted.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const [interrupt] = interruptsOf(interrupted);

    client.send(
      runInput({
        threadId: 'ws-multi',
        runId: 'run-3',
        iacCode,
        extra: {
          messages: [],
          resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { decision: 'allow_once' } }],
        },
      }),
    );
    const resumed = await client.nextRun();
    await expectConformantEvents(resumed);
    expect(resumed.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });

    client.socket.close(1000);
    expect(await client.closed).toEqual({ code: 1000, reason: '' });
  });

  it('answers an admission refusal with one RUN_ERROR frame and keeps the socket open', async () => {
    const client = await open();
    client.send(runInput({ threadId: '', runId: 'run-1' }));
    expect(await client.nextRun()).toEqual([
      {
        type: 'RUN_ERROR',
        code: 'INVALID_INPUT',
        message: 'Invalid AG-UI RunAgentInput envelope.',
        timestamp: expect.any(Number),
      },
    ]);
    client.send(runInput({ threadId: 'ws-after-error', runId: 'run-1' }));
    const run = await client.nextRun();
    await expectConformantEvents(run);
    expect(run.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
  });

  it('runs an input sent while a run streams after that run, with no frame of one inside the other', async () => {
    const client = await open();
    client.send(runInput({ threadId: 'ws-queue', runId: 'run-1', text: 'Create a VPC template' }));
    client.send(runInput({ threadId: 'ws-queue', runId: 'run-2', text: 'Now add a security group' }));
    const first = await client.nextRun();
    const second = await client.nextRun();
    // The socket's stream as a whole is valid AG-UI: each run is closed before the next one starts.
    await expectConformantEvents([...first, ...second]);
    for (const [run, runId] of [
      [first, 'run-1'],
      [second, 'run-2'],
    ] as const) {
      expect(run[0]).toMatchObject({ type: 'RUN_STARTED', runId });
      expect(run.at(-1)).toMatchObject({ type: 'RUN_FINISHED', runId, outcome: { type: 'success' } });
    }
    expect(client.events.some((event) => event.type === 'RUN_ERROR')).toBe(false);
  });

  it('drops an input waiting behind an active run when the socket closes, and cancels that run once', async () => {
    const client = await open();
    client.send(runInput({ threadId: 'ws-busy', runId: 'run-1', text: 'silent' }));
    await client.waitForEvents(2);
    const requestsBefore = await gateway.upstream.requests();
    client.send(runInput({ threadId: 'ws-busy', runId: 'run-2', text: 'never sent' }));
    expect(client.socket.readyState).toBe(client.socket.OPEN);
    const before = requestsBefore.filter((entry) => entry.rpcMethod === 'CancelTask').length;

    client.socket.close(1000);
    const cancels = await eventually(
      async () =>
        (await gateway.upstream.requests()).filter((entry) => entry.rpcMethod === 'CancelTask').length,
      (count) => count > before,
    );
    expect(cancels).toBe(before + 1);
    expect(client.events.some((event) => event.type === 'RUN_ERROR')).toBe(false);
    const sent = (await gateway.upstream.requests()).filter(
      (entry) => entry.rpcMethod === 'SendStreamingMessage',
    );
    expect(JSON.stringify(sent)).not.toContain('never sent');
  });

  it('sends protocol pings on the heartbeat interval', async () => {
    const client = await open();
    const pinged = new Promise<void>((resolve) => client.socket.once('ping', () => resolve()));
    await expect(pinged).resolves.toBeUndefined();
  });

  it.each([
    { name: 'not JSON', frame: '{"threadId":', reason: 'The request body is not valid JSON.' },
    { name: 'a JSON array', frame: '[1,2]', reason: 'RunAgentInput must be a JSON object.' },
    { name: 'a JSON string', frame: '"run"', reason: 'RunAgentInput must be a JSON object.' },
  ])('closes with 1003 on $name', async ({ frame, reason }) => {
    const client = await open();
    client.send(frame);
    expect(await client.closed).toEqual({ code: 1003, reason });
  });

  it('closes after the run with closeAfterRun=true', async () => {
    const client = await open({ query: 'closeAfterRun=true' });
    client.send(runInput({ threadId: 'ws-once', runId: 'run-1' }));
    const run = await client.nextRun();
    await expectConformantEvents(run);
    expect(await client.closed).toEqual({ code: 1000, reason: '' });
  });

  it('sends a 100 KB event intact as fragments of at most 32 KB', async () => {
    const raw = await RawWsConnection.open(gateway.url, '/ws', AUTH);
    try {
      // The demo answer echoes the prompt, so one TEXT_MESSAGE_CONTENT carries it whole.
      const prompt = `Explain ${'é€x'.repeat(20_000)}`;
      raw.sendText(JSON.stringify(runInput({ threadId: 'ws-large', runId: 'run-1', text: prompt })));
      await raw.waitFor((frames) =>
        textMessagesOf(frames).some(({ text }) => /"type":"RUN_(FINISHED|ERROR)"/.test(text)),
      );
      const messages = textMessagesOf(raw.frames);
      const large = messages.find(
        ({ text }) => text.includes(prompt.slice(-300)) && text.includes('TEXT_MESSAGE_CONTENT'),
      );
      expect(large).toBeDefined();
      expect(Buffer.byteLength(large!.text)).toBeGreaterThan(100_000);
      expect(large!.fragments.length).toBeGreaterThan(3);
      expect(large!.fragments.map((frame) => frame.opcode)).toEqual([
        1,
        ...large!.fragments.slice(1).map(() => 0),
      ]);
      expect(Math.max(...raw.frames.map((frame) => frame.payload.length))).toBeLessThanOrEqual(32 * 1024);
      const events = messages.map(({ text }) => parseFrame(text));
      await expectConformantEvents(events);
      const content = events.find((event) => event.type === 'TEXT_MESSAGE_CONTENT') as unknown as {
        delta: string;
      };
      expect(content.delta).toContain(prompt.trim());
    } finally {
      raw.destroy();
    }
  });
});

describe('AgentCore WebSocket /ws handshake and faults', () => {
  const gateway = useGateway({
    upstream: true,
    env: {
      IAC_CODE_AGUI_AUTH_TOKEN: TOKEN,
      IAC_CODE_AGUI_OAUTH_RESOURCE_METADATA_URL:
        'https://auth.example.com/.well-known/oauth-protected-resource',
    },
  });

  it.each<{ name: string; headers: Record<string, string>; protocols: string[] }>([
    { name: 'no token', headers: {}, protocols: [] },
    { name: 'a wrong bearer header', headers: { authorization: 'Bearer nope' }, protocols: [] },
    {
      name: 'a wrong subprotocol token',
      headers: {},
      protocols: [
        `base64UrlBearerAuthorization.${Buffer.from('nope').toString('base64url')}`,
        'base64UrlBearerAuthorization',
      ],
    },
  ])(
    'refuses the handshake with HTTP 401 and the OAuth challenge for $name',
    async ({ headers, protocols }) => {
      const refusal = await WsRunClient.refusal(gateway.url, { headers, protocols });
      expect(refusal.status).toBe(401);
      expect(refusal.headers['www-authenticate']).toBe(
        'Bearer resource_metadata="https://auth.example.com/.well-known/oauth-protected-resource"',
      );
    },
  );

  it('accepts the browser subprotocol pair and selects only the bare marker', async () => {
    const client = await WsRunClient.open(gateway.url, {
      protocols: [
        `base64UrlBearerAuthorization.${Buffer.from(TOKEN).toString('base64url')}`,
        'base64UrlBearerAuthorization',
      ],
      query: 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id=session-from-query',
    });
    try {
      expect(client.socket.protocol).toBe('base64UrlBearerAuthorization');
      expect(client.upgrade.headers[SESSION_HEADER]).toBe('session-from-query');
      client.send(runInput({ threadId: 'ws-browser', runId: 'run-1' }));
      const run = await client.nextRun();
      await expectConformantEvents(run);
      expect(run.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
      // The socket's ids are on the run's log lines, as pino-http puts a request's ids on HTTP lines.
      const runLines = gateway.logs.filter(
        (line) => line.includes('"runId":"run-1"') && line.includes('ws-browser'),
      );
      expect(runLines.length).toBeGreaterThan(0);
      expect(runLines.every((line) => line.includes('"agentCoreSessionId":"session-from-query"'))).toBe(true);
    } finally {
      client.socket.terminate();
    }
  });

  it('closes with 1011 when the server fails', async () => {
    const failing = await gateway.start({}, (builder) =>
      builder.overrideProvider(RunService).useValue({
        admit: () => Promise.reject(new Error('disk on fire')),
        beforeApplicationShutdown: () => Promise.resolve(),
      }),
    );
    const client = await WsRunClient.open(failing.url, { headers: AUTH });
    client.send(runInput({ threadId: 'ws-fault', runId: 'run-1' }));
    expect(await client.closed).toEqual({ code: 1011, reason: 'The AG-UI gateway hit an unexpected error.' });
    expect(failing.logs.some((line) => line.includes('disk on fire'))).toBe(true);
    expect(client.events).toEqual([]);
  });
});
