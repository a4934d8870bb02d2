import { createHash, randomUUID } from 'node:crypto';
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { startKernelUpstream, type KernelUpstream } from '../support/start-kernel-upstream';
import type { Json } from '../support/interrupt-helpers';

/**
 * The scripted kernel upstream behaves like the iac-code kernel on the wire (reference
 * docs/behaviour/a2a.md#the-kernels-own-behaviour): CRLF SSE and pings, version gate, bearer auth, the kernel's frame sequence,
 * and the failure scripts the gateway's error paths are tested against.
 */

const TOKEN = 'kernel-test-token';
const PING_MS = 150;

let upstream: KernelUpstream;

beforeAll(async () => {
  upstream = await startKernelUpstream({ token: TOKEN, pingMs: PING_MS });
});

afterAll(async () => {
  await upstream?.close();
});

function rpcBody(method: string, params: Json, id: string | number = randomUUID()): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

function messageParams(text: string): Json {
  return { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } };
}

function post(body: string, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(upstream.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'A2A-Version': '1.0',
      Authorization: `Bearer ${TOKEN}`,
      ...headers,
    },
    body,
    signal,
  });
}

function stream(text: string): Promise<Response> {
  return post(rpcBody('SendStreamingMessage', messageParams(text)));
}

/** Splits a raw SSE body on the kernel's CRLF CRLF terminator; `data:` records parsed, comments kept raw. */
function records(raw: string): { frames: Json[]; comments: string[] } {
  const parts = raw.split('\r\n\r\n').filter((part) => part !== '');
  return {
    frames: parts
      .filter((part) => part.startsWith('data: '))
      .map((part) => JSON.parse(part.slice(6)) as Json),
    comments: parts.filter((part) => part.startsWith(':')),
  };
}

/** Reads a streaming body until `isDone(textSoFar)`; returns the text and a reader to keep reading. */
async function readUntil(
  response: Response,
  isDone: (text: string) => boolean,
): Promise<{ text: string; rest: () => Promise<string>; cancel: () => Promise<void> }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!isDone(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  const rest = async (): Promise<string> => {
    let more = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return more;
      more += decoder.decode(value, { stream: true });
    }
  };
  return { text, rest, cancel: () => reader.cancel() };
}

const stateOf = (frame: Json): string | undefined =>
  frame.result?.task?.status?.state ?? frame.result?.statusUpdate?.status?.state;
const iacCodeOf = (frame: Json): Json | undefined => frame.result?.statusUpdate?.metadata?.iac_code;
const textOf = (frame: Json): string | undefined =>
  frame.result?.statusUpdate?.status?.message?.parts?.[0]?.text;

describe('HTTP surface', () => {
  it.each([
    { name: 'GET /health', method: 'GET', path: 'health' },
    { name: 'GET agent card', method: 'GET', path: '.well-known/agent-card.json' },
    { name: 'POST / (JSON-RPC)', method: 'POST', path: '' },
  ])('$name without the bearer token → 401', async ({ method, path }) => {
    const response = await fetch(new URL(path, upstream.url), {
      method,
      headers: { 'A2A-Version': '1.0', 'Content-Type': 'application/json' },
      body: method === 'POST' ? rpcBody('GetTask', { id: 'x' }) : undefined,
    });
    expect(response.status).toBe(401);
  });

  it('GET /health with the token → 200 JSON', async () => {
    const response = await fetch(new URL('health', upstream.url), {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('serves an agent card with streaming and a JSON-RPC interface at the server URL', async () => {
    const response = await fetch(new URL('.well-known/agent-card.json', upstream.url), {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const card = (await response.json()) as Json;
    expect(card.capabilities.streaming).toBe(true);
    expect(card.supportedInterfaces).toEqual([
      { url: upstream.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
  });

  it.each([
    { name: 'pipeline state', method: 'GET', path: 'iac-code/pipeline/state?taskId=t&afterSequence=0' },
    { name: 'session restore', method: 'POST', path: 'iac-code/session/ensure-restored' },
  ])('extension route $name → 404 for an unknown task', async ({ method, path }) => {
    const response = await fetch(new URL(path, upstream.url), {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: method === 'POST' ? JSON.stringify({ cwd: '/tmp', sessionId: 's', taskId: 't' }) : undefined,
    });
    expect(response.status).toBe(404);
  });
});

describe('JSON-RPC gate', () => {
  it('answers -32009 without the A2A-Version header, as a JSON error with HTTP 200', async () => {
    const response = await fetch(upstream.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
      body: rpcBody('SendStreamingMessage', messageParams('hello'), 7),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32009);
  });

  it('answers -32009 for another version', async () => {
    const response = await post(rpcBody('GetTask', { id: 'x' }), { 'A2A-Version': '0.3' });
    expect(((await response.json()) as Json).error.code).toBe(-32009);
  });

  it.each(['message/stream', 'message/send', 'tasks/get', 'tasks/cancel'])(
    '0.3 method %s → -32601',
    async (method) => {
      const response = await post(rpcBody(method, messageParams('hello')));
      expect(((await response.json()) as Json).error.code).toBe(-32601);
    },
  );
});

describe('default script on the raw wire', () => {
  let raw: string;
  let frames: Json[];

  beforeAll(async () => {
    const response = await stream('create a VPC');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    raw = await response.text(); // resolves only because the stream closes after INPUT_REQUIRED
    frames = records(raw).frames;
  });

  it('frames every record with CRLF CRLF and never a bare LF LF', () => {
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
    expect(raw.replace(/\r\n\r\n/g, '')).not.toMatch(/\n\n/);
    expect(raw.split('\r\n\r\n').filter(Boolean).length).toBe(frames.length);
  });

  it('opens with task SUBMITTED → statusUpdate SUBMITTED → WORKING and ends with assistantFinal → INPUT_REQUIRED', () => {
    expect(Object.keys(frames[0].result)).toEqual(['task']);
    expect(frames.slice(0, 3).map(stateOf)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
    ]);
    const [final, last] = frames.slice(-2);
    expect(iacCodeOf(final)?.assistantFinal).toEqual({ complete: true });
    expect(stateOf(final)).toBe('TASK_STATE_WORKING');
    expect(stateOf(last)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(iacCodeOf(last)?.input).toBeUndefined();
    expect(last.result.statusUpdate.status.message).toBeUndefined();
  });

  it('keeps one task, one context and a session id derived from the context on every status update', () => {
    const taskId = frames[0].result.task.id as string;
    const contextId = frames[0].result.task.contextId as string;
    const sessionId = `session-${createHash('sha256').update(contextId).digest('hex').slice(0, 12)}`;
    const updates = frames.slice(1).map((frame) => frame.result.statusUpdate ?? frame.result.artifactUpdate);
    expect(new Set(updates.map((update) => `${update.taskId}|${update.contextId}`))).toEqual(
      new Set([`${taskId}|${contextId}`]),
    );
    const statusUpdates = frames.filter((frame) => frame.result.statusUpdate);
    expect(statusUpdates.every((frame) => iacCodeOf(frame)?.iacCodeSessionId === sessionId)).toBe(true);
  });

  it('streams text deltas on one kernel message id; the final frame repeats the whole answer', () => {
    const taskId = frames[0].result.task.id as string;
    const deltas = frames.slice(3, -2).filter((frame) => textOf(frame) !== undefined);
    expect(deltas.length).toBeGreaterThan(2);
    expect(new Set(deltas.map((frame) => frame.result.statusUpdate.status.message.messageId))).toEqual(
      new Set([`${taskId}-message`]),
    );
    expect(deltas.every((frame) => frame.result.statusUpdate.status.message.role === 'ROLE_AGENT')).toBe(
      true,
    );
    const answer = deltas.map(textOf).join('');
    expect(answer).toContain('create a VPC');
    expect(textOf(frames[frames.length - 2])).toBe(answer);
  });

  it('carries thinking, a full tool lifecycle, usage and an artifact', () => {
    expect(frames.map((frame) => iacCodeOf(frame)?.thinking?.type).filter(Boolean)).toContain('raw_thinking');
    const tools = frames.map((frame) => iacCodeOf(frame)?.tool).filter(Boolean) as Json[];
    expect(tools.map((tool) => tool.status)).toEqual(['started', 'input_complete', 'progress', 'completed']);
    expect(new Set(tools.map((tool) => tool.name))).toEqual(new Set(['ros_validate_template']));
    expect(tools[1].toolInput.templateBody).toContain('ALIYUN::ECS::VPC');
    expect(typeof tools[3].result).toBe('string');
    const usage = frames.map((frame) => iacCodeOf(frame)?.usage).find(Boolean) as Json;
    expect(Object.keys(usage).sort()).toEqual(
      ['cachedInputTokens', 'inputTokens', 'model', 'outputTokens', 'provider', 'totalTokens'].sort(),
    );
    expect(usage.totalTokens).toBe(usage.inputTokens + usage.outputTokens);
    const artifact = frames.find((frame) => frame.result.artifactUpdate)?.result.artifactUpdate
      .artifact as Json;
    expect(artifact.name).toBe('template.yaml');
    expect(artifact.parts[0].text).toContain('ROSTemplateFormatVersion');
  });

  it('GetTask and CancelTask answer with the task object itself; cancelling a finished turn is prompt', async () => {
    const taskId = frames[0].result.task.id as string;
    const got = (await (await post(rpcBody('GetTask', { id: taskId }))).json()) as Json;
    expect(got.result.id).toBe(taskId);
    expect(got.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const cancelled = (await (
      await post(rpcBody('CancelTask', { id: taskId }), {}, AbortSignal.timeout(3000))
    ).json()) as Json;
    expect(cancelled.result.id).toBe(taskId);
    expect(cancelled.result.status.state).toBe('TASK_STATE_CANCELED');
  });
});

describe('heartbeat and cancel on the raw wire', () => {
  it('sends `: ping - <ISO datetime>` comments in silence; CancelTask ends the silent stream with CANCELED', async () => {
    const response = await stream('silent please');
    const ping = /: ping - \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\r\n\r\n/;
    const { text, rest } = await readUntil(response, (sofar) => ping.test(sofar));
    expect(text).toMatch(ping);
    const opened = records(text).frames;
    expect(opened.map(stateOf)).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
    ]);

    const taskId = opened[0].result.task.id as string;
    const cancelled = (await (
      await post(rpcBody('CancelTask', { id: taskId }), {}, AbortSignal.timeout(3000))
    ).json()) as Json;
    expect(cancelled.result.status.state).toBe('TASK_STATE_CANCELED');
    const tail = records(await rest()).frames;
    expect(tail.map(stateOf)).toEqual(['TASK_STATE_CANCELED']);
  });

  it('hang-cancel: CancelTask never answers', async () => {
    const response = await stream('hang-cancel');
    const { text, cancel } = await readUntil(response, (sofar) => records(sofar).frames.length >= 3);
    const taskId = records(text).frames[0].result.task.id as string;
    await expect(post(rpcBody('CancelTask', { id: taskId }), {}, AbortSignal.timeout(600))).rejects.toThrow(
      /aborted|timeout/i,
    );
    await cancel();
  });
});

describe('failure scripts', () => {
  it('drop: the socket dies after text, reasoning and a started tool, without a terminal frame', async () => {
    const response = await stream('drop');
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let raw = '';
    const readToEnd = async (): Promise<void> => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        raw += decoder.decode(value, { stream: true });
      }
    };
    await expect(readToEnd()).rejects.toThrow(/terminated/);
    const frames = records(raw).frames;
    expect(frames.some((frame) => textOf(frame) !== undefined)).toBe(true);
    expect(frames.some((frame) => iacCodeOf(frame)?.thinking)).toBe(true);
    expect(frames.map((frame) => iacCodeOf(frame)?.tool?.status).filter(Boolean)).toEqual(['started']);
    expect(
      frames
        .map(stateOf)
        .every((state) => state === 'TASK_STATE_SUBMITTED' || state === 'TASK_STATE_WORKING'),
    ).toBe(true);
    expect(frames.some((frame) => frame.error)).toBe(false);
  });

  it('rpc-error: a JSON-RPC error frame after the stream started, HTTP 200, then the stream closes', async () => {
    const response = await post(rpcBody('SendStreamingMessage', messageParams('rpc-error'), 'req-9'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = records(await response.text()).frames;
    expect(frames.some((frame) => textOf(frame) === 'Starting. ')).toBe(true);
    expect(frames[frames.length - 1]).toEqual({
      jsonrpc: '2.0',
      id: 'req-9',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(frames.filter((frame) => frame.error)).toHaveLength(1);
  });

  it('http-500: HTTP 500 before any stream', async () => {
    const response = await stream('http-500');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(((await response.json()) as Json).error.code).toBe(-32603);
  });

  it('fail: the task ends in TASK_STATE_FAILED and the stream closes', async () => {
    const frames = records(await (await stream('fail')).text()).frames;
    expect(stateOf(frames[frames.length - 1])).toBe('TASK_STATE_FAILED');
    expect(textOf(frames[frames.length - 1])).toBe('The scripted task failed.');
  });
});

describe('through the @a2a-js/sdk client', () => {
  let client: Client;

  beforeAll(async () => {
    const withToken: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${TOKEN}`);
      return fetch(input, { ...init, headers });
    };
    client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: withToken })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: withToken }),
    }).createFromUrl(upstream.url);
  });

  const request = (text: string) =>
    SendMessageRequest.fromJSON({
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
    });

  it('streams the default script end to end through CRLF framing', async () => {
    const cases: string[] = [];
    const states: TaskState[] = [];
    for await (const item of client.sendMessageStream(request('hello'))) {
      cases.push(item.payload!.$case);
      if (item.payload?.$case === 'statusUpdate') states.push(item.payload.value.status!.state);
    }
    expect(cases[0]).toBe('task');
    expect(cases).toContain('artifactUpdate');
    expect(states.slice(0, 2)).toEqual([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]);
    expect(states[states.length - 1]).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });

  it('CancelTask of a silent task returns promptly with TASK_STATE_CANCELED', async () => {
    const items = client.sendMessageStream(request('silent'))[Symbol.asyncIterator]();
    const first = await items.next();
    const payload = first.done ? undefined : first.value.payload;
    if (payload?.$case !== 'task') throw new Error(`expected a task first, got ${payload?.$case}`);
    const taskId = payload.value.id;

    // "Promptly" is the behaviour, not a duration: CancelTask of a parked task answers at all (the task
    // publishes CANCELED itself; without that it hangs). The signal is only a safety net against a hang.
    const cancelled = await client.cancelTask(
      { tenant: '', id: taskId, metadata: undefined },
      { signal: AbortSignal.timeout(20_000) },
    );
    expect(cancelled.id).toBe(taskId);
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    const rest: TaskState[] = [];
    for (let next = await items.next(); !next.done; next = await items.next()) {
      if (next.value.payload?.$case === 'statusUpdate') rest.push(next.value.payload.value.status!.state);
    }
    expect(rest[rest.length - 1]).toBe(TaskState.TASK_STATE_CANCELED);
  });
});

describe('request journal', () => {
  it('records JSON-RPC requests with their headers, never the authorization header', async () => {
    const entries = await upstream.requests();
    const streamed = entries.filter((entry) => entry.rpcMethod === 'SendStreamingMessage');
    expect(streamed.length).toBeGreaterThan(3);
    expect(streamed.every((entry) => entry.httpMethod === 'POST' && entry.path === '/')).toBe(true);
    expect(streamed.some((entry) => entry.headers['a2a-version'] === '1.0')).toBe(true);
    expect(entries.some((entry) => 'authorization' in entry.headers)).toBe(false);
    const texts = streamed.map((entry) => (entry.body as Json).params.message.parts[0].text);
    expect(texts).toEqual(expect.arrayContaining(['create a VPC', 'drop', 'silent please']));
  });
});
