import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat-completions request as the model server received it. */
export interface ChatRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: ChatRequestBody;
}

export interface ChatRequestBody {
  readonly model: string;
  readonly messages: ChatMessage[];
  readonly tools?: { type: string; function: { name: string } }[];
  readonly stream?: boolean;
  readonly [key: string]: unknown;
}

export interface ChatMessage {
  readonly role: string;
  readonly content?: string | { type: string; text?: string }[] | null;
  readonly tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  readonly tool_call_id?: string;
}

/** The text of a message, whether its content is a string or a list of parts. */
export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

/** The text of the latest user message in a request. */
export function lastUserText(request: ChatRequest): string {
  return messageText(request.body.messages.filter((message) => message.role === 'user').at(-1));
}

/** What the model answers. */
export type LlmReply =
  | { readonly kind: 'text'; readonly text: string; readonly reasoning?: string }
  | { readonly kind: 'tool-call'; readonly name: string; readonly arguments: Record<string, unknown> }
  /** Streams `first`, then holds the response open until the test releases it or the client leaves. */
  | { readonly kind: 'held'; readonly first: string; readonly rest: string }
  | { readonly kind: 'http-error'; readonly status: number; readonly message: string };

export type ChooseReply = (request: ChatRequest) => LlmReply;

/** A held reply (see LlmReply `held`): the test decides when it ends. */
export interface HeldReply {
  readonly request: ChatRequest;
  /** Sends the rest of the reply and ends the stream. */
  release(): void;
  /** Resolves when the response ended: released, or the client closed the connection. */
  readonly ended: Promise<'released' | 'client-closed'>;
}

export interface ScriptedLlm {
  /** The OpenAI-compatible base URL (`…/v1`), for IAC_CODE_BASE_URL. */
  readonly baseUrl: string;
  /** Every request so far, oldest first. */
  readonly requests: readonly ChatRequest[];
  /** The first request (already received or still to come) for which `matches` holds. */
  waitForRequest(matches: (request: ChatRequest) => boolean): Promise<ChatRequest>;
  /** The next held reply that starts (or one already held and not yet claimed). */
  nextHeld(): Promise<HeldReply>;
  close(): Promise<void>;
}

/** Usage the model reports on every answer, so the kernel has token counts to forward. */
export const SCRIPTED_USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } as const;

/**
 * A real OpenAI-compatible model server on 127.0.0.1 port 0 (`POST …/chat/completions`), whose answers a
 * script picks from the conversation. It speaks the Chat Completions wire both ways: streaming (SSE
 * `data: {chunk}` records ending with `data: [DONE]`, reasoning as `reasoning_content` deltas, tool calls as
 * `tool_calls` deltas) and, when the request has no `stream: true`, one `chat.completion` JSON body.
 */
export async function startScriptedLlm(choose: ChooseReply): Promise<ScriptedLlm> {
  const requests: ChatRequest[] = [];
  const events = new EventEmitter();
  const unclaimedHeld: HeldReply[] = [];
  let sequence = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error), type: 'server_error' } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'not_found' } }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ChatRequest = {
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody,
    };
    requests.push(request);
    events.emit('request', request);
    const reply = choose(request);
    const id = `chatcmpl-scripted-${++sequence}`;
    if (reply.kind === 'http-error') {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: reply.message, type: 'invalid_request_error', code: null } }),
      );
      return;
    }
    if (request.body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completionOf(id, request.body.model, reply)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: Record<string, unknown>, finishReason: string | null = null, usage?: object) =>
      res.write(
        `data: ${JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created: Math.floor(Date.now() / 1000),
          model: request.body.model,
          choices: [{ index: 0, delta, finish_reason: finishReason }],
          ...(usage ? { usage } : {}),
        })}\n\n`,
      );
    const finish = (finishReason: string) => {
      send({}, finishReason, SCRIPTED_USAGE);
      res.end('data: [DONE]\n\n');
    };
    send({ role: 'assistant', content: '' });
    switch (reply.kind) {
      case 'text':
        if (reply.reasoning) send({ reasoning_content: reply.reasoning });
        for (const piece of splitInTwo(reply.text)) send({ content: piece });
        return finish('stop');
      case 'tool-call': {
        const args = JSON.stringify(reply.arguments);
        const callId = `call_scripted_${sequence}`;
        send({
          tool_calls: [
            { index: 0, id: callId, type: 'function', function: { name: reply.name, arguments: '' } },
          ],
        });
        for (const piece of splitInTwo(args))
          send({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
        return finish('tool_calls');
      }
      case 'held': {
        send({ content: reply.first });
        const ended = holdUntilReleased(res, () => {
          send({ content: reply.rest });
          finish('stop');
        });
        const held: HeldReply = { request, release: ended.release, ended: ended.ended };
        unclaimedHeld.push(held);
        events.emit('held');
        await ended.ended;
        return;
      }
    }
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    waitForRequest: (matches) =>
      new Promise((resolve) => {
        const found = requests.find(matches);
        if (found) return resolve(found);
        const listener = (request: ChatRequest) => {
          if (!matches(request)) return;
          events.off('request', listener);
          resolve(request);
        };
        events.on('request', listener);
      }),
    nextHeld: () =>
      new Promise((resolve) => {
        const take = () => {
          const held = unclaimedHeld.shift();
          if (!held) return false;
          events.off('held', take);
          resolve(held);
          return true;
        };
        if (!take()) events.on('held', take);
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Two deltas where possible, so the kernel really assembles a stream. */
function splitInTwo(text: string): string[] {
  const middle = Math.ceil(text.length / 2);
  return middle > 0 && middle < text.length ? [text.slice(0, middle), text.slice(middle)] : [text];
}

function holdUntilReleased(res: ServerResponse, sendRest: () => void) {
  let release!: () => void;
  const ended = new Promise<'released' | 'client-closed'>((resolve) => {
    res.once('close', () => resolve('client-closed'));
    release = () => {
      if (res.writableEnded || res.destroyed) return;
      sendRest();
      resolve('released');
    };
  });
  return { release, ended };
}

function completionOf(id: string, model: string, reply: Exclude<LlmReply, { kind: 'http-error' }>) {
  const message =
    reply.kind === 'tool-call'
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${id}`,
              type: 'function',
              function: { name: reply.name, arguments: JSON.stringify(reply.arguments) },
            },
          ],
        }
      : reply.kind === 'held'
        ? { role: 'assistant', content: reply.first + reply.rest }
        : {
            role: 'assistant',
            content: reply.text,
            ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
          };
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: reply.kind === 'tool-call' ? 'tool_calls' : 'stop' }],
    usage: SCRIPTED_USAGE,
  };
}
