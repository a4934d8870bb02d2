import { Agent, fetch as undiciFetch } from 'undici';

/** The A2A protocol version the kernel speaks (its version gate refuses a call without it). */
const A2A_PROTOCOL_VERSION = '1.0';

/** A `fetch` for every call to the kernel, plus the connection pool it owns. */
export interface UpstreamFetch {
  readonly fetch: typeof fetch;
  close(): Promise<void>;
}

/**
 * Builds the fetch the SDK transport, the agent-card resolver and the readiness probe share.
 *
 * Timeouts are off on purpose: undici's defaults (300 s for headers and between body chunks) would
 * cut a long silent kernel turn, and the SDK server flushes SSE headers only with the first event
 * (a2a-js-sdk.md §2.6). Liveness is bounded elsewhere: by the caller's AbortSignal, the cancel timeout
 * and the health check's own timeout. The original used a 3600 s client timeout (reference §3.1).
 *
 * The bearer goes on every request, the agent card included, because the kernel guards every route
 * when it runs with a token (iac-code-kernel-wire.md "Auth"). So does `A2A-Version: 1.0`: the SDK sets it
 * on its own calls, and the iac-code extension routes get it here, as the published adapter sends it on
 * every call.
 */
export function createUpstreamFetch(token: string | undefined): UpstreamFetch {
  const dispatcher = new Agent({ bodyTimeout: 0, headersTimeout: 0 });
  const upstreamFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    if (!headers.has('a2a-version')) headers.set('a2a-version', A2A_PROTOCOL_VERSION);
    // undici's own fetch, not the global one: Node's bundled undici may differ from the Agent's version.
    return undiciFetch(input instanceof Request ? input.url : input, {
      method: init?.method,
      body: init?.body as string | undefined,
      signal: init?.signal ?? undefined,
      headers: Object.fromEntries(headers),
      dispatcher,
    }) as unknown as Promise<Response>;
  };
  return {
    fetch: upstreamFetch as typeof fetch,
    // destroy, not close: close() would wait for SSE bodies that are still open at shutdown.
    close: () => dispatcher.destroy(),
  };
}
