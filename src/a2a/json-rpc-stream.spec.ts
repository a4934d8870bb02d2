import { type AgentCard, SendMessageRequest, StreamResponse, SubscribeToTaskRequest } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import fc from 'fast-check';
import type { A2aFrame } from '../wire/a2a-wire';
import {
  artifactFrame,
  endOfTurnFrames,
  kernelSessionId,
  statusFrame,
  textDeltaFrame,
  thinkingFrame,
  toolFrame,
} from '../demo-kernel/kernel-frames';
import { formatKernelPing } from '../demo-kernel/kernel-sse-frames';
import { MAX_SSE_EVENT_CHARS, streamJsonRpc } from './json-rpc-stream';
import { withTenant } from './sdk-a2a-gateway';
import type { OpenUpstreamStream } from './upstream-fetch';

const ENDPOINT = 'http://kernel.test/a2a/';
const TRACE = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };

interface Answer {
  /** Text is sent as UTF-8; bytes as they are (a cut may fall inside a character). */
  readonly chunks: ReadonlyArray<string | Uint8Array>;
  readonly contentType?: string;
  /** The kernel keeps the stream open after the chunks (a turn still running). */
  readonly staysOpen?: boolean;
}

interface SentRequest {
  readonly url: string;
  readonly method?: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** A fetch answering every call with `answer`, recording what was sent and whether the body was cancelled. */
function scriptedFetch(answer: Answer) {
  const sent: SentRequest[] = [];
  const cancelled: boolean[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({
      url: String(input),
      method: init?.method,
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body as string | undefined,
    });
    const index = cancelled.push(false) - 1;
    const bytes = answer.chunks.map((chunk) =>
      typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk,
    );
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = bytes.shift();
        if (next) controller.enqueue(next);
        else if (answer.staysOpen) return new Promise<void>(() => undefined);
        else controller.close();
      },
      cancel() {
        cancelled[index] = true;
      },
    });
    return new Response(body, { headers: { 'content-type': answer.contentType ?? 'text/event-stream' } });
  }) as typeof fetch;
  return { fetchImpl, openStream: openOver(fetchImpl), sent, cancelled };
}

/** The gateway's stream opener over `fetchImpl`, so both readings get the same answer from the same fake. */
function openOver(fetchImpl: typeof fetch): OpenUpstreamStream {
  return async (url, { headers, body, signal }) => {
    const response = await fetchImpl(url, { method: 'POST', headers, body, signal });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? undefined,
      body: response.body as ReadableStream<Uint8Array>,
      text: () => response.text(),
      cancel: () => void response.body?.cancel().catch(() => undefined),
    };
  };
}

function card(tenant: string): AgentCard {
  return {
    name: 'kernel',
    description: '',
    version: '1',
    supportedInterfaces: [{ url: ENDPOINT, protocolBinding: 'JSONRPC', tenant, protocolVersion: '1.0' }],
    capabilities: { streaming: true, extensions: [] },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    securitySchemes: {},
    securityRequirements: [],
    signatures: [],
  } as unknown as AgentCard;
}

const MESSAGE = {
  messageId: 'm-1',
  role: 'ROLE_USER',
  parts: [{ text: 'hello' }],
  contextId: 'ctx-1',
  metadata: { iac_code: { cwd: '/work' } },
};

type Outcome = { frames: unknown[]; error?: { message: string; cause?: unknown } };

/** The frames and the error of a stream, errors compared by message and by their cause's class and fields. */
async function outcomeOf(frames: AsyncIterable<unknown>): Promise<Outcome> {
  const seen: unknown[] = [];
  try {
    for await (const frame of frames) seen.push(frame);
    return { frames: seen };
  } catch (error) {
    const { message, cause } = error as Error & { cause?: Error & Record<string, unknown> };
    return {
      frames: seen,
      error: {
        message,
        cause: cause && { name: cause.name, message: cause.message, data: cause.data, code: cause.code },
      },
    };
  }
}

type Method = 'SendStreamingMessage' | 'SubscribeToTask';

/** The same call through the SDK client (the reference) and through `streamJsonRpc`, over the same answer. */
async function bothReadings(answer: Answer, method: Method = 'SendStreamingMessage', tenant = '') {
  const sdk = scriptedFetch(answer);
  const client = await new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: sdk.fetchImpl })],
    preferredTransports: ['JSONRPC'],
    clientConfig: { acceptedOutputModes: ['text/plain'] },
  }).createFromAgentCard(card(tenant));
  const kernel = { tenant };
  const sendRequest = SendMessageRequest.fromJSON({
    message: MESSAGE,
    configuration: { acceptedOutputModes: ['text/plain'] },
  });
  const subscribeRequest = SubscribeToTaskRequest.fromJSON({ id: 'task-1' });
  const options = { signal: new AbortController().signal, serviceParameters: { ...TRACE } };
  const sdkItems =
    method === 'SendStreamingMessage'
      ? client.sendMessageStream(sendRequest, options)
      : client.resubscribeTask(subscribeRequest, options);
  const reference = await outcomeOf(asWireJson(sdkItems));

  const ours = scriptedFetch(answer);
  const params =
    method === 'SendStreamingMessage'
      ? SendMessageRequest.toJSON(withTenant(sendRequest, kernel))
      : SubscribeToTaskRequest.toJSON(withTenant(subscribeRequest, kernel));
  const read = await outcomeOf(
    streamJsonRpc(ours.openStream, { endpoint: ENDPOINT, method, params, id: 1, ...options }),
  );
  return { reference, read, sdkSent: sdk.sent, oursSent: ours.sent, cancelled: ours.cancelled };
}

async function* asWireJson(items: AsyncIterable<StreamResponse>): AsyncIterable<unknown> {
  for await (const item of items) yield StreamResponse.toJSON(item);
}

const ids = { taskId: 'task-1', contextId: 'ctx-1', sessionId: kernelSessionId('ctx-1') };

/** What the kernel streams for a turn with a tool, thinking and an artifact, in its own SSE framing. */
const KERNEL_TURN: readonly unknown[] = [
  { task: { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_SUBMITTED' } } },
  statusFrame(ids, 'TASK_STATE_SUBMITTED'),
  statusFrame(ids, 'TASK_STATE_WORKING'),
  thinkingFrame(ids, 'let me look'),
  toolFrame(ids, { status: 'started', toolUseId: 'tu-1', name: 'Bash', toolInput: { command: 'ls' } }),
  toolFrame(ids, { status: 'completed', toolUseId: 'tu-1', name: 'Bash', result: 'a\nb' }),
  textDeltaFrame(ids, 'Here ✓ '),
  textDeltaFrame(ids, 'it is.'),
  artifactFrame(ids, { artifactId: 'a-1', name: 'plan', text: '# Plan', mediaType: 'text/markdown' }),
  ...endOfTurnFrames(ids, 'Here ✓ it is.'),
];

/** `data: <envelope>` records; CRLF as the kernel (sse-starlette) writes them, or LF, with pings between. */
function sse(results: readonly unknown[], lineEnd: '\r\n' | '\n' = '\r\n', id: unknown = 1): string {
  const ping = formatKernelPing(Date.UTC(2026, 11, 1)).replaceAll('\r\n', lineEnd);
  return results
    .map(
      (result, index) =>
        `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}${lineEnd}${lineEnd}${index % 3 === 0 ? ping : ''}`,
    )
    .join('');
}

function errorRecord(error: unknown, lineEnd = '\r\n'): string {
  return `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, error })}${lineEnd}${lineEnd}`;
}

describe('streamJsonRpc: the SDK JSON-RPC stream, read with eventsource-parser and one JSON.parse per frame', () => {
  it.each<readonly [string, Method, string]>([
    ['SendStreamingMessage', 'SendStreamingMessage', ''],
    ['SendStreamingMessage with an interface tenant', 'SendStreamingMessage', 'acme'],
    ['SubscribeToTask', 'SubscribeToTask', ''],
    ['SubscribeToTask with an interface tenant', 'SubscribeToTask', 'acme'],
  ])('%s: the same request, headers and body as the SDK', async (_name, method, tenant) => {
    const { sdkSent, oursSent } = await bothReadings({ chunks: [sse(KERNEL_TURN)] }, method, tenant);
    expect(oursSent).toStrictEqual(sdkSent);
    expect(oursSent).toHaveLength(1);
    expect(oursSent[0].headers).toMatchObject({
      'A2A-Version': '1.0',
      Accept: 'text/event-stream',
      ...TRACE,
    });
  });

  it.each<readonly [string, string]>([
    ['CRLF framing (the kernel)', sse(KERNEL_TURN, '\r\n')],
    ['LF framing', sse(KERNEL_TURN, '\n')],
    [
      'a task snapshot first (SubscribeToTask)',
      sse([
        {
          task: {
            id: 'task-1',
            contextId: 'ctx-1',
            status: { state: 'TASK_STATE_WORKING' },
            history: [{ messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
          },
        },
        ...KERNEL_TURN.slice(3),
      ]),
    ],
    [
      'frames the SDK reshapes (snake_case, defaults, unknown keys)',
      sse([
        { status_update: { task_id: 'task-1', status: { state: 'TASK_STATE_WORKING' }, final: false } },
        { artifactUpdate: { taskId: 'task-1', append: false, artifact: { artifactId: 'a', parts: [] } } },
      ]),
    ],
    [
      'multi-line data and event names',
      'event: message\ndata: {"jsonrpc":"2.0",\ndata: "id":1,"result":{"message":{"messageId":"m"}}}\n\n',
    ],
    ['an empty data record, skipped', `data:\n\n${sse(KERNEL_TURN.slice(0, 2), '\n')}`],
    ['a last record without the blank line', sse(KERNEL_TURN.slice(0, 3), '\n').slice(0, -1)],
    [
      'an unterminated last line, dropped',
      `${sse(KERNEL_TURN.slice(0, 2), '\n')}data: {"jsonrpc":"2.0","id":1,"result":{}}`,
    ],
  ])('%s: the same frames', async (_name, body) => {
    const { reference, read } = await bothReadings({ chunks: [body] });
    expect(read).toStrictEqual(reference);
    expect(read.error).toBeUndefined();
    expect(read.frames.length).toBeGreaterThan(0);
  });

  it.each<readonly [string, string]>([
    [
      'a JSON-RPC error frame (task not found)',
      errorRecord({ code: -32001, message: 'Task not found: task-1' }),
    ],
    [
      'a JSON-RPC error frame with data (backup not ready)',
      errorRecord({
        code: -32603,
        message: 'busy',
        data: { code: 'SESSION_BACKUP_NOT_READY', retryable: true },
      }),
    ],
    ['an invalid-params error', errorRecord({ code: -32602, message: 'Invalid params' })],
    ['an error frame without a code', errorRecord({ message: 'odd' })],
    ['a null error', errorRecord(null)],
    ['data that is not JSON', 'data: {"jsonrpc":\r\n\r\n'],
    ['data of blanks', 'data:   \r\n\r\n'],
    ['not JSON-RPC 2.0', 'data: {"jsonrpc":"1.0","id":1,"result":{}}\r\n\r\n'],
    ['not an object', 'data: 42\r\n\r\n'],
    ['another request id', sse(KERNEL_TURN.slice(0, 1), '\r\n', 2)],
    ['no result', 'data: {"jsonrpc":"2.0","id":1}\r\n\r\n'],
    ['a null result', 'data: {"jsonrpc":"2.0","id":1,"result":null}\r\n\r\n'],
  ])('%s after two frames: the same frames, then the same error', async (_name, failing) => {
    const body = sse(KERNEL_TURN.slice(0, 2)) + failing + sse(KERNEL_TURN.slice(2, 4));
    const { reference, read, cancelled } = await bothReadings({ chunks: [body], staysOpen: true });
    expect(read).toStrictEqual(reference);
    expect(read.frames).toHaveLength(2);
    expect(read.error).toBeDefined();
    expect(cancelled).toStrictEqual([true]);
  });

  it.each<readonly [string, Answer]>([
    [
      'a JSON-RPC error answered as JSON',
      {
        chunks: ['{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"gone"}}'],
        contentType: 'application/json',
      },
    ],
    [
      'a JSON body without an error',
      { chunks: ['{"jsonrpc":"2.0","id":1,"result":{}}'], contentType: 'application/json' },
    ],
    ['an HTML body', { chunks: ['<html>'], contentType: 'text/html' }],
    ['a null JSON body', { chunks: ['null'], contentType: 'application/json' }],
  ])('a 200 answer that is not an event stream (%s): the same error', async (_name, answer) => {
    const { reference, read } = await bothReadings(answer);
    expect(read).toStrictEqual(reference);
    expect(read.error).toBeDefined();
  });

  it('any split of the bytes into chunks reads the same as the SDK', async () => {
    const body = Buffer.from(sse(KERNEL_TURN) + errorRecord({ code: -32001, message: 'gone' }));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          // Byte offsets, so a cut can fall inside a multi-byte character or between CR and LF.
          const bounds = [0, ...cuts.sort((a, b) => a - b), body.length];
          const chunks = bounds.slice(1).map((end, index) => body.subarray(bounds[index], end));
          const { reference, read } = await bothReadings({ chunks });
          expect(read).toStrictEqual(reference);
          expect(read.frames).toHaveLength(KERNEL_TURN.length);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('an event over the size bound fails the stream', async () => {
    const huge = `data: ${'x'.repeat(MAX_SSE_EVENT_CHARS + 1)}`;
    const { read } = await bothReadings({ chunks: [sse(KERNEL_TURN.slice(0, 1)), huge] });
    expect(read.frames).toHaveLength(1);
    expect(read.error?.message).toMatch(/exceeded the maximum allowed size/);
  });

  it('an abort stops the frames already read and cancels the body; so does leaving early', async () => {
    const { openStream, cancelled } = scriptedFetch({ chunks: [sse(KERNEL_TURN)], staysOpen: true });
    const abort = new AbortController();
    const call = {
      endpoint: ENDPOINT,
      method: 'SubscribeToTask',
      params: {},
      id: 1,
      serviceParameters: {},
    } as const;
    const seen: A2aFrame[] = [];
    const aborted = (async () => {
      for await (const frame of streamJsonRpc(openStream, { ...call, signal: abort.signal })) {
        seen.push(frame);
        abort.abort(new Error('client left'));
      }
    })();
    await expect(aborted).rejects.toThrow('client left');
    expect(seen).toHaveLength(1);

    for await (const frame of streamJsonRpc(openStream, { ...call, signal: new AbortController().signal })) {
      expect(frame).toStrictEqual(KERNEL_TURN[0]);
      break;
    }
    expect(cancelled).toStrictEqual([true, true]);
  });
});
