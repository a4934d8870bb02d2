import { expectConformantEvents } from '../support/agui-conformance';
import { runInput } from '../support/run-input';
import { eventually, parseSse, postRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';
import { WsRunClient } from '../support/ws-client';

const TOKEN = 'agentcore-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const SESSION = 'x-amzn-bedrock-agentcore-runtime-session-id';
const REQUEST = 'x-amzn-bedrock-agentcore-runtime-request-id';
const METADATA_URL =
  'https://bedrock-agentcore.eu-central-1.amazonaws.com/runtimes/arn%3Aaws/invocations/.well-known/oauth-protected-resource?qualifier=DEFAULT';

interface Ping {
  status: string;
  time_of_last_update: number;
}

/** The AgentCore HTTP face (items 1–3, 5): raw fetch, so statuses, headers and bodies are visible. */
describe('AgentCore /invocations and /ping', () => {
  const gateway = useGateway({
    upstream: true,
    env: {
      IAC_CODE_AGUI_AUTH_TOKEN: TOKEN,
      IAC_CODE_AGUI_SESSION_BINDING: 'true',
      IAC_CODE_AGUI_OAUTH_RESOURCE_METADATA_URL: METADATA_URL,
    },
  });
  const invocations = () => `${gateway.url}invocations`;
  const ping = async (): Promise<Ping> => {
    const response = await fetch(`${gateway.url}ping`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    return (await response.json()) as Ping;
  };

  it.each([
    {
      name: 'no token',
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'A valid bearer token is required.',
      headers: {},
      body: JSON.stringify(runInput()),
    },
    {
      name: 'a text body',
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Content-Type must be application/json.',
      headers: { ...AUTH, 'content-type': 'text/plain' },
      body: JSON.stringify(runInput()),
    },
    {
      name: 'broken JSON',
      status: 400,
      code: 'INVALID_JSON',
      message: 'The request body is not valid JSON.',
      headers: AUTH,
      body: '{',
    },
    {
      name: 'generic forwardedProps while the mode is off',
      status: 400,
      code: 'INVALID_INPUT',
      message: 'Invalid iac-code forwarded properties.',
      headers: AUTH,
      body: JSON.stringify({ ...runInput(), forwardedProps: {} }),
    },
  ])(
    'answers $status with one RUN_ERROR $code frame for $name',
    async ({ status, code, message, headers, body }) => {
      const response = await fetch(invocations(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SESSION]: 'session-errors', ...headers },
        body,
      });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const text = await response.text();
      expect(text).toMatch(/^data: \{[^\n]*\}\n\n$/);
      expect(parseSse(text).events).toEqual([
        { type: 'RUN_ERROR', code, message, timestamp: expect.any(Number) },
      ]);
      if (status === 401) {
        expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${METADATA_URL}"`);
      } else {
        // The guard let it through: the session and request ids are echoed, on refusals too.
        expect(response.headers.get(SESSION)).toBe('session-errors');
        expect(response.headers.get(REQUEST)).toEqual(expect.any(String));
      }
    },
  );

  it('honours the platform request id and echoes it', async () => {
    const response = await postRun(invocations(), runInput({ threadId: 'request-id', runId: 'run-1' }), {
      headers: { ...AUTH, [REQUEST]: 'req-1234', [SESSION]: 'session-r' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get(REQUEST)).toBe('req-1234');
    expect(response.headers.get(SESSION)).toBe('session-r');
    await expectConformantEvents(response.events);
    expect(
      gateway.logs.some(
        (line) =>
          line.includes('"requestId":"req-1234"') && line.includes('"agentCoreSessionId":"session-r"'),
      ),
    ).toBe(true);
  });

  it('binds a thread to its first session: another session gets 409 THREAD_BINDING_CONFLICT', async () => {
    const first = await postRun(invocations(), runInput({ threadId: 'bound', runId: 'run-1' }), {
      headers: { ...AUTH, [SESSION]: 'session-a' },
    });
    await expectConformantEvents(first.events);
    expect(first.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const other = await postRun(invocations(), runInput({ threadId: 'bound', runId: 'run-2' }), {
      headers: { ...AUTH, [SESSION]: 'session-b' },
    });
    expect(other.status).toBe(409);
    expect(other.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(other.events).toEqual([
      {
        type: 'RUN_ERROR',
        code: 'THREAD_BINDING_CONFLICT',
        message: expect.any(String),
        timestamp: expect.any(Number),
      },
    ]);
    const same = await postRun(invocations(), runInput({ threadId: 'bound', runId: 'run-3' }), {
      headers: { ...AUTH, [SESSION]: 'session-a' },
    });
    expect(same.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    // No session header at all is no way into a bound thread either, on either HTTP face.
    const anonymousSse = await postRun(invocations(), runInput({ threadId: 'bound', runId: 'run-4' }), {
      headers: AUTH,
    });
    expect(anonymousSse.status).toBe(409);
    expect(anonymousSse.events).toMatchObject([{ type: 'RUN_ERROR', code: 'THREAD_BINDING_CONFLICT' }]);
    const anonymousJson = await postRun(gateway.url, runInput({ threadId: 'bound', runId: 'run-5' }), {
      headers: AUTH,
    });
    expect(anonymousJson.status).toBe(409);
    expect(JSON.parse(anonymousJson.text)).toMatchObject({ error: { code: 'THREAD_BINDING_CONFLICT' } });
  });

  it('pings Healthy, HealthyBusy during an SSE or WebSocket run, then Healthy with a stable timestamp', async () => {
    const idle = await ping();
    expect(idle.status).toBe('Healthy');
    expect(Number.isInteger(idle.time_of_last_update)).toBe(true);
    // The value is in unix seconds: wait until the wall clock is in a later second than the status change
    // (the passing of time is what this case is about), then the status has not changed, so the value must
    // not either, or the idle timeout could never fire.
    const currentSecond = async () => Math.floor(Date.now() / 1000);
    await eventually(currentSecond, (second) => second > idle.time_of_last_update);
    expect(await ping()).toEqual(idle);

    const controller = new AbortController();
    const sseRun = postRun(
      invocations(),
      runInput({ threadId: 'ping-sse', runId: 'run-1', text: 'silent' }),
      {
        headers: AUTH,
        signal: controller.signal,
      },
    );
    const busy = await eventually(ping, (value) => value.status === 'HealthyBusy');
    expect(busy.status).toBe('HealthyBusy');
    expect(busy.time_of_last_update).toBeGreaterThan(idle.time_of_last_update);
    expect(await ping()).toEqual(busy);
    controller.abort();
    await sseRun;
    const afterSse = await eventually(ping, (value) => value.status === 'Healthy');
    expect(afterSse.status).toBe('Healthy');
    expect(afterSse.time_of_last_update).toBeGreaterThanOrEqual(busy.time_of_last_update);
    expect(await ping()).toEqual(afterSse);

    const client = await WsRunClient.open(gateway.url, { headers: AUTH });
    try {
      client.send(runInput({ threadId: 'ping-ws', runId: 'run-1', text: 'silent' }));
      expect((await eventually(ping, (value) => value.status === 'HealthyBusy')).status).toBe('HealthyBusy');
    } finally {
      client.socket.close(1000);
    }
    const afterWs = await eventually(ping, (value) => value.status === 'Healthy');
    expect(afterWs.status).toBe('Healthy');
    expect(await ping()).toEqual(afterWs);
  });
});
