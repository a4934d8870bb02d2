import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { BodyBudget } from '../../src/common/body-budget';
import { runInput } from '../support/run-input';
import { eventually, openRun, parseSse, postRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';

const TOKEN = 'gateway-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const MIB = 1024 * 1024;

interface Case {
  name: string;
  status: number;
  code: string;
  message: string;
  body: unknown;
  headers?: Record<string, string>;
}

const cases: Case[] = [
  {
    name: 'missing token',
    status: 401,
    code: 'UNAUTHORIZED',
    message: 'A valid bearer token is required.',
    body: runInput(),
    headers: { authorization: '' },
  },
  {
    name: 'wrong token',
    status: 401,
    code: 'UNAUTHORIZED',
    message: 'A valid bearer token is required.',
    body: runInput(),
    headers: { authorization: 'Bearer nope' },
  },
  {
    name: 'wrong media type',
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Content-Type must be application/json.',
    body: runInput(),
    headers: { ...AUTH, 'content-type': 'text/plain' },
  },
  {
    name: 'body over 12 MiB',
    status: 413,
    code: 'REQUEST_TOO_LARGE',
    message: 'The AG-UI request body is too large.',
    body: JSON.stringify({ pad: 'x'.repeat(12 * MIB) }),
    headers: AUTH,
  },
  {
    name: 'not JSON',
    status: 400,
    code: 'INVALID_JSON',
    message: 'The request body is not valid JSON.',
    body: '{"threadId":',
    headers: AUTH,
  },
  {
    name: 'not an object',
    status: 400,
    code: 'INVALID_INPUT',
    message: 'RunAgentInput must be a JSON object.',
    body: '[1,2]',
    headers: AUTH,
  },
  {
    name: 'unknown key in a message (unknown top-level keys are ignored)',
    status: 400,
    code: 'INVALID_INPUT',
    message: 'Invalid AG-UI RunAgentInput envelope.',
    body: runInput({ extra: { messages: [{ id: 'm', role: 'user', content: 'hi', surprise: true }] } }),
    headers: AUTH,
  },
  {
    name: 'empty threadId',
    status: 400,
    code: 'INVALID_INPUT',
    message: 'Invalid AG-UI RunAgentInput envelope.',
    body: runInput({ threadId: '' }),
    headers: AUTH,
  },
  {
    name: 'bad iacCode',
    status: 400,
    code: 'INVALID_INPUT',
    message: 'Invalid iac-code forwarded properties.',
    body: runInput({ iacCode: { schemaVersion: '1' } }),
    headers: AUTH,
  },
  {
    name: 'client tools',
    status: 400,
    code: 'INVALID_INPUT',
    message: 'Invalid iac-code forwarded properties.',
    body: runInput({ extra: { tools: [{ name: 't', description: 'd', parameters: {} }] } }),
    headers: AUTH,
  },
  {
    name: 'a user message with no content',
    status: 400,
    code: 'INVALID_INPUT',
    message: 'The user message content (messages[].content) must not be empty.',
    body: runInput({ extra: { messages: [{ id: 'm', role: 'user', content: [] }] } }),
    headers: AUTH,
  },
  {
    name: 'a user message with an empty id',
    status: 400,
    code: 'INVALID_INPUT',
    message: 'The user message id (messages[].id) must not be empty.',
    body: runInput({ extra: { messages: [{ id: '', role: 'user', content: 'hi' }] } }),
    headers: AUTH,
  },
  {
    name: 'cwd outside the roots',
    status: 400,
    code: 'INVALID_INPUT',
    message: 'Invalid iac-code forwarded properties.',
    body: runInput({ iacCode: { cwd: '/etc/agui-outside' } }),
    headers: AUTH,
  },
];

describe('errors before the stream starts, on both faces', () => {
  const gateway = useGateway({
    upstream: true,
    env: { IAC_CODE_AGUI_AUTH_TOKEN: TOKEN, IAC_CODE_AGUI_HEARTBEAT_SECONDS: '5' },
  });

  it.each(cases)(
    'POST / answers $status $code for $name',
    async ({ status, code, message, body, headers }) => {
      const response = await postRun(gateway.url, body, { headers });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(response.text)).toEqual({ error: { code, message } });
    },
  );

  it.each(cases)(
    'POST /invocations answers $status with one RUN_ERROR $code frame for $name',
    async ({ status, code, message, body, headers }) => {
      const response = await postRun(`${gateway.url}invocations`, body, { headers });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const { events } = parseSse(response.text);
      expect(events).toEqual([{ type: 'RUN_ERROR', code, message, timestamp: expect.any(Number) }]);
    },
  );

  it('sends nothing to the kernel for a user message with no content or an empty id', async () => {
    const before = (await gateway.upstream.requests()).length;
    const bodies = [
      runInput({ threadId: 'empty-content', extra: { messages: [{ id: 'm', role: 'user', content: [] }] } }),
      runInput({ threadId: 'empty-id', extra: { messages: [{ id: '', role: 'user', content: 'hi' }] } }),
    ];
    for (const body of bodies) {
      expect((await postRun(gateway.url, body, { headers: AUTH })).status).toBe(400);
      expect((await postRun(`${gateway.url}invocations`, body, { headers: AUTH })).status).toBe(400);
    }
    // A valid run afterwards reaches the kernel, so the journal is live and the refusals left no entry.
    const valid = await postRun(gateway.url, runInput({ threadId: 'after-empty' }), { headers: AUTH });
    expect(valid.status).toBe(200);
    const sent = (await gateway.upstream.requests()).slice(before);
    const messageIds = sent
      .map((entry) => (entry.body as { params?: { message?: { messageId?: string } } } | undefined)?.params)
      .flatMap((params) => (params?.message ? [params.message.messageId] : []));
    expect(messageIds).toEqual(['message-1']);
  });

  it('answers 401 to an oversized body without a token before the body is sent', async () => {
    const { port } = new URL(gateway.url);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json', 'content-length': String(64 * MIB) },
      });
      request.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
        request.destroy();
      });
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      // Only 1 MiB of the announced 64 MiB is ever written: the answer must not wait for the rest.
      request.write(Buffer.alloc(MIB, 0x20));
    });
    expect(status).toBe(401);
  });

  it('counts a streamed body without Content-Length against the cap while reading', async () => {
    const { port } = new URL(gateway.url);
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: { ...AUTH, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body });
          request.destroy();
        });
      });
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      const chunk = Buffer.alloc(MIB, 0x20);
      const pump = (left: number) => {
        if (left === 0 || request.destroyed) return;
        if (request.write(chunk)) setImmediate(() => pump(left - 1));
        else request.once('drain', () => pump(left - 1));
      };
      pump(20);
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toEqual({
      error: { code: 'REQUEST_TOO_LARGE', message: 'The AG-UI request body is too large.' },
    });
  });

  it('answers 409 THREAD_BUSY while the thread has an active run', async () => {
    const first = openRun(gateway.url, runInput({ threadId: 'busy-1', runId: 'run-a', text: 'silent' }), {
      headers: AUTH,
    });
    // RUN_STARTED goes out once the run is admitted and holds the thread's slot.
    await first.waitForEvent((event) => event.type === 'RUN_STARTED');
    const second = await postRun(gateway.url, runInput({ threadId: 'busy-1', runId: 'run-b' }), {
      headers: AUTH,
    });
    first.abort();
    await first.finished;
    expect(second.status).toBe(409);
    expect(JSON.parse(second.text)).toEqual({
      error: { code: 'THREAD_BUSY', message: 'The AG-UI thread already has an active run.' },
    });
  });

  it('advertises the Bearer scheme on 401', async () => {
    const response = await postRun(gateway.url, runInput(), { headers: { authorization: '' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('a string over its bound is refused before anything is stored (docs/behaviour/bounds.md)', () => {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-bounds-'));
  const gateway = useGateway({ upstream: true, env: { IAC_CODE_AGUI_STATE_DIR: stateDir } });

  /** Every file under the state directory with its size: what "nothing written" is checked against. */
  const stateFiles = () =>
    readdirSync(stateDir, { recursive: true, encoding: 'utf8' })
      .map((name) => `${name}:${statSync(path.join(stateDir, name)).size}`)
      .sort();

  it('answers 20 runs with a 4 MiB userId with 20 × 400 INVALID_INPUT and writes no thread', async () => {
    const before = stateFiles();
    const userId = 'u'.repeat(4 * MIB);
    const answers = [];
    for (let index = 0; index < 20; index++) {
      const body = runInput({ threadId: `huge-user-${index}`, runId: `run-${index}`, iacCode: { userId } });
      const response = await postRun(gateway.url, body);
      answers.push({ status: response.status, body: JSON.parse(response.text) as unknown });
    }
    expect(answers).toEqual(
      Array.from({ length: 20 }, () => ({
        status: 400,
        body: { error: { code: 'INVALID_INPUT', message: 'Invalid iac-code forwarded properties.' } },
      })),
    );
    expect(stateFiles()).toEqual(before);
  });
});

describe('the process-wide budget of request bodies in flight (docs/behaviour/bounds.md#memory)', () => {
  const gateway = useGateway({
    upstream: true,
    env: { IAC_CODE_AGUI_BODY_BUDGET_BYTES: String(12 * MIB), IAC_CODE_AGUI_HTTP_BODY_IDLE_SECONDS: '60' },
  });

  it('refuses a body past the budget at once with 503 SERVER_BUSY, and takes bodies again once it is free', async () => {
    const budget = gateway.app.get(BodyBudget);
    const { port } = new URL(gateway.url);
    // A slow client announces a 12 MiB body and sends a part of it: the whole budget is held while it reads.
    const slow = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/json', 'content-length': String(12 * MIB) },
    });
    const slowAnswer = new Promise<number>((resolve) => {
      slow.on('response', (response) => resolve(response.statusCode ?? 0));
      slow.on('error', () => resolve(0));
    });
    slow.write('{"threadId":');
    await eventually(
      async () => budget.bytesInFlight,
      (bytes) => bytes === 12 * MIB,
      60_000,
    );

    const refused = await postRun(gateway.url, runInput({ threadId: 'budget-1' }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(JSON.parse(refused.text)).toEqual({
      error: {
        code: 'SERVER_BUSY',
        message: 'The AG-UI gateway is reading too many request bodies at once. Retry shortly.',
      },
    });

    slow.destroy();
    await slowAnswer;
    await eventually(
      async () => budget.bytesInFlight,
      (bytes) => bytes === 0,
      60_000,
    );
    const taken = await postRun(gateway.url, runInput({ threadId: 'budget-2' }));
    expect(taken.status).toBe(200);
    expect(budget.bytesInFlight).toBe(0);
  });
});
