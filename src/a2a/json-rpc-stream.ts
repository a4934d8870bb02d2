import { A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { fromJsonRpcErrorResponse } from '@a2a-js/sdk/errors';
import { createParser, type ParseError } from 'eventsource-parser';
import type { A2aFrame } from '../wire/a2a-wire';
import { toStreamResponseJson } from './stream-response-json';
import { UpstreamHttpError } from './upstream-error';
import type { OpenUpstreamStream, UpstreamStreamAnswer } from './upstream-fetch';

/** One streaming JSON-RPC call, as the SDK's JSON-RPC transport would send it. */
export interface JsonRpcStreamCall {
  /** The kernel's JSON-RPC endpoint (the agent card's pinned interface). */
  readonly endpoint: string;
  readonly method: 'SendStreamingMessage' | 'SubscribeToTask';
  /** The request's params as proto-JSON (the SDK's `<Request>.toJSON`). */
  readonly params: unknown;
  /** The JSON-RPC id; every frame must echo it. */
  readonly id: number;
  /** Extra headers (the call's W3C trace headers). */
  readonly serviceParameters: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

/** The SDK's bound on one SSE event (`DEFAULT_MAX_SSE_EVENT_SIZE_BYTES`), counted in characters as it does. */
export const MAX_SSE_EVENT_CHARS = 4 * 1024 * 1024;

/**
 * Streams the kernel's answer to one JSON-RPC call as StreamResponse objects, reading the SSE body with
 * `eventsource-parser` and one `JSON.parse` per frame instead of the SDK client's parse → objects →
 * `toJSON` round trip (docs/benchmarks.md, "Where the time goes"). What goes over the wire and every
 * frame and error that comes back are the SDK's: the same request body and headers, the same checks of
 * each envelope with the same messages, a JSON-RPC error frame as an Error whose cause is the SDK's error
 * class (src/a2a/json-rpc-stream.spec.ts runs both over the same bytes).
 *
 * `openStream` is the gateway's streams' pool, bounded by the idle deadline; a non-2xx answer fails as
 * UpstreamHttpError, as every JSON-RPC call does (`failingOnHttpErrors`). Returning early or aborting
 * cancels the response body, so an abandoned run does not hold the connection; frames already read when
 * the signal aborts are not handed out.
 */
export async function* streamJsonRpc(
  openStream: OpenUpstreamStream,
  call: JsonRpcStreamCall,
): AsyncIterable<A2aFrame> {
  const response = await openStream(call.endpoint, {
    headers: {
      ...call.serviceParameters,
      [A2A_VERSION_HEADER]: A2A_PROTOCOL_VERSION,
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', method: call.method, params: call.params, id: call.id }),
    signal: call.signal,
  });
  if (response.status < 200 || response.status > 299) {
    response.cancel();
    throw new UpstreamHttpError(response.status);
  }
  await expectEventStream(response, call.method);

  const frames: A2aFrame[] = [];
  let failure: unknown;
  const parser = createParser({
    onEvent: ({ data }) => {
      // The SDK skips an event without data, and stops at the first failing frame.
      if (failure !== undefined || data === '') return;
      try {
        frames.push(frameOf(data, call.id));
      } catch (error) {
        failure = error;
      }
    },
    onError: (error: ParseError) => {
      // Unknown fields and a bad `retry:` are ignored, as by the SDK; only the size bound fails.
      if (error.type === 'max-buffer-size-exceeded') failure ??= eventTooLarge();
    },
    maxBufferSize: MAX_SSE_EVENT_CHARS,
  });
  const decoder = new TextDecoder();
  let endsWithLineFeed = false;
  const feed = (text: string) => {
    if (text.length === 0) return;
    parser.feed(text);
    endsWithLineFeed = text.charCodeAt(text.length - 1) === LINE_FEED;
  };
  try {
    for await (const chunk of response.body) {
      feed(decoder.decode(chunk, { stream: true }));
      yield* handOut(frames, failure, call.signal);
    }
    feed(decoder.decode());
    // The SDK hands out an event whose last line ended, even without the blank line after it. (A parser
    // stopped by the size bound must not be fed again: it would throw its own error instead.)
    if (endsWithLineFeed && failure === undefined) parser.feed('\n');
    yield* handOut(frames, failure, call.signal);
  } finally {
    response.cancel();
  }
}

/** The frames read so far, then the reading's failure if there is one; none once the call is aborted. */
function* handOut(frames: A2aFrame[], failure: unknown, signal: AbortSignal): Iterable<A2aFrame> {
  for (const frame of frames) {
    signal.throwIfAborted();
    yield frame;
  }
  frames.length = 0;
  if (failure !== undefined) throw failure;
}

const LINE_FEED = 10;

type JsonRpcErrorEnvelope = Parameters<typeof fromJsonRpcErrorResponse>[0];

/** The SDK's check of one SSE event's data, with its messages: an envelope with our id and a `result`. */
function frameOf(data: string, id: number): A2aFrame {
  // O(1) for a JSON object: nothing to trim at either end.
  if (!data.trim()) throw new Error('Attempted to process empty SSE event data.');
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(data) as Record<string, unknown>;
  } catch (error) {
    const reason = (error instanceof Error && error.message) || 'Unknown error';
    throw new Error(
      `Failed to parse SSE event data: "${data.substring(0, 100)}...". Original error: ${reason}`,
      { cause: error },
    );
  }
  if (typeof envelope !== 'object' || envelope === null || envelope.jsonrpc !== '2.0') {
    const received =
      typeof envelope === 'object' && envelope !== null && 'jsonrpc' in envelope
        ? JSON.stringify(envelope.jsonrpc)
        : 'undefined';
    throw new Error(
      `Invalid JSON-RPC response for SSE event: expected 'jsonrpc' to be exactly '2.0', got ${received}.`,
    );
  }
  if (envelope.id !== id) {
    throw new Error(
      `JSON-RPC response ID mismatch in SSE event. Expected ${id}, got ${String(envelope.id)}.`,
    );
  }
  if ('error' in envelope) {
    const error = envelope.error as { message?: unknown; code?: unknown; data?: unknown };
    throw new Error(
      `SSE event contained an error: ${String(error.message)} (Code: ${String(error.code)}) Data: ${JSON.stringify(error.data || {})}`,
      { cause: fromJsonRpcErrorResponse(envelope as unknown as JsonRpcErrorEnvelope) },
    );
  }
  if (!('result' in envelope)) {
    throw new Error(`SSE event JSON-RPC response is missing 'result' field. Data: ${data}`);
  }
  return toStreamResponseJson(envelope.result);
}

function eventTooLarge(): Error {
  return new Error(
    `SSE event data exceeded the maximum allowed size of ${MAX_SSE_EVENT_CHARS} bytes. Pass maxEventSizeBytes to raise the limit, or prefer FileWithUri parts for large payloads.`,
  );
}

/**
 * A 2xx answer that is not an event stream: the SDK reads a JSON-RPC error from it if it is one, and
 * otherwise fails with the content type.
 */
async function expectEventStream(response: UpstreamStreamAnswer, method: string): Promise<void> {
  if (response.contentType?.startsWith('text/event-stream')) return;
  try {
    const body = JSON.parse(await response.text()) as { error?: unknown };
    if (body.error) throw fromJsonRpcErrorResponse(body as unknown as JsonRpcErrorEnvelope);
  } catch (error) {
    if (error instanceof Error && error.name !== 'SyntaxError') throw error;
  }
  throw new Error(
    `Invalid response Content-Type for SSE stream for ${method}. Expected 'text/event-stream'.`,
  );
}
