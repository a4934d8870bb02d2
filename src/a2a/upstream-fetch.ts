import { Agent, fetch as undiciFetch } from 'undici';

/** The A2A protocol version the kernel speaks (its version gate refuses a call without it). */
const A2A_PROTOCOL_VERSION = '1.0';

/** A `fetch` for every call to the kernel, the streaming calls' opener, and the connection pools they own. */
export interface UpstreamFetch {
  readonly fetch: typeof fetch;
  readonly openStream: OpenUpstreamStream;
  close(): Promise<void>;
}

/** The answer to a streaming call, its body read as it arrives. */
export interface UpstreamStreamAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
  /** Stops reading and frees the connection (a no-op once the body has ended). */
  cancel(): void;
}

/** POSTs one streaming JSON-RPC call (the body already serialised) to the kernel. */
export type OpenUpstreamStream = (
  url: string,
  request: {
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
    readonly signal: AbortSignal;
  },
) => Promise<UpstreamStreamAnswer>;

export interface UpstreamDeadlines {
  /** IAC_CODE_AGUI_A2A_IDLE_SECONDS in ms: a stream with no byte at all (headers, frames, pings) for this long fails. */
  readonly idleMs: number;
  /** IAC_CODE_AGUI_A2A_CALL_TIMEOUT_SECONDS in ms: the whole of one unary call, answer body included. */
  readonly callTimeoutMs: number;
}

/**
 * Builds the fetch the SDK transport, the agent-card resolver, the extension routes and the readiness
 * probe share, with a deadline on every call, so a kernel that stops answering cannot hold a run (and its
 * thread) for ever.
 *
 * Streams (the SDK asks for `text/event-stream`) are bounded by silence, not by length: a kernel turn may
 * last an hour, but the kernel sends a `: ping` comment every 15 s, so no byte at all for `idleMs` means the
 * stream is dead. undici's own header and body timeouts measure exactly that (time to the headers, time
 * between body chunks), so they are set to `idleMs` on the streams' pool. The streams go through undici's
 * `request` rather than its `fetch`: a Node stream for the body instead of a WHATWG Request clone, fetch
 * controller and web stream per call, which were a third of an open run's heap (docs/benchmarks.md,
 * "Memory"); src/a2a/json-rpc-stream.spec.ts keeps the SDK's fetch-based reading as the reference. Unary calls get an overall
 * `callTimeoutMs` through their AbortSignal, joined with the caller's (a CancelTask keeps its shorter bound).
 *
 * The bearer goes on every request, the agent card included, because the kernel guards every route
 * when it runs with a token (docs/behaviour/a2a.md#the-kernels-own-behaviour). So does `A2A-Version: 1.0`: the SDK sets it
 * on its own calls, and the iac-code extension routes get it here, as the published adapter sends it on
 * every call.
 */
export function createUpstreamFetch(token: string | undefined, deadlines: UpstreamDeadlines): UpstreamFetch {
  const streams = new Agent({ bodyTimeout: deadlines.idleMs, headersTimeout: deadlines.idleMs });
  // Unary answers are bounded as a whole by the signal below; undici's per-phase timers would only add noise.
  const calls = new Agent({ bodyTimeout: 0, headersTimeout: 0 });
  const upstreamFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    if (!headers.has('a2a-version')) headers.set('a2a-version', A2A_PROTOCOL_VERSION);
    const isStream = (headers.get('accept') ?? '').includes('text/event-stream');
    const signal = isStream
      ? (init?.signal ?? undefined)
      : withDeadline(init?.signal, deadlines.callTimeoutMs);
    // undici's own fetch, not the global one: Node's bundled undici may differ from the Agent's version.
    return undiciFetch(input instanceof Request ? input.url : input, {
      method: init?.method,
      body: init?.body as string | undefined,
      signal,
      headers: Object.fromEntries(headers),
      dispatcher: isStream ? streams : calls,
    }) as unknown as Promise<Response>;
  };
  const openStream: OpenUpstreamStream = async (url, request) => {
    const { origin, pathname, search } = new URL(url);
    const hasAuthorization = Object.keys(request.headers).some(
      (name) => name.toLowerCase() === 'authorization',
    );
    const answer = await streams.request({
      origin,
      path: `${pathname}${search}`,
      method: 'POST',
      headers:
        token && !hasAuthorization
          ? { ...request.headers, authorization: `Bearer ${token}` }
          : request.headers,
      body: request.body,
      signal: request.signal,
    });
    const contentType = answer.headers['content-type'];
    return {
      status: answer.statusCode,
      contentType: Array.isArray(contentType) ? contentType[0] : contentType,
      body: answer.body,
      text: () => answer.body.text(),
      // Nothing reads the body any more: its abort error (or a late socket error) has nowhere to go.
      cancel: () => void answer.body.on('error', () => undefined).destroy(),
    };
  };
  return {
    fetch: upstreamFetch as typeof fetch,
    openStream,
    // destroy, not close: close() would wait for SSE bodies that are still open at shutdown.
    close: async () => {
      await Promise.all([streams.destroy(), calls.destroy()]);
    },
  };
}

/** The caller's signal (if any) joined with a timeout: whichever fires first ends the call. */
function withDeadline(signal: AbortSignal | null | undefined, ms: number): AbortSignal {
  const deadline = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, deadline]) : deadline;
}
