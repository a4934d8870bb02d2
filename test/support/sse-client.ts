import type { BaseEvent } from '@ag-ui/core';

export interface SseResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The raw body text (frames and comments), to check framing byte for byte. */
  readonly text: string;
  /** The `data:` records parsed as JSON, in order. */
  readonly events: BaseEvent[];
  /** Each event's `id:` (the run's cursor), in the same order; `undefined` for a record without one. */
  readonly ids: (string | undefined)[];
  /** Comment lines (`: heartbeat`). */
  readonly comments: string[];
}

/** Splits an SSE body the way @ag-ui/client does (LF-only frames), keeping comments and ids apart. */
export function parseSse(text: string): {
  events: BaseEvent[];
  ids: (string | undefined)[];
  comments: string[];
} {
  const events: BaseEvent[] = [];
  const ids: (string | undefined)[] = [];
  const comments: string[] = [];
  for (const frame of text.split('\n\n')) {
    if (!frame) continue;
    const data: string[] = [];
    let id: string | undefined;
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) comments.push(line);
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      else if (line.startsWith('id:') && id === undefined) id = line.slice(3).replace(/^ /, '');
      else throw new Error(`unexpected SSE line: ${JSON.stringify(line)}`);
    }
    if (data.length > 0) {
      events.push(JSON.parse(data.join('\n')) as BaseEvent);
      ids.push(id);
    } else if (id !== undefined) throw new Error(`an SSE id without data: ${JSON.stringify(frame)}`);
  }
  return { events, ids, comments };
}

export interface PostOptions {
  readonly headers?: Record<string, string>;
  /** Abort the request after this many events arrived (a client disconnect mid-run). */
  readonly disconnectAfterEvents?: number;
  readonly signal?: AbortSignal;
}

/** POSTs a JSON body and reads the whole SSE (or error) response. */
export function postRun(url: string, body: unknown, options: PostOptions = {}): Promise<SseResponse> {
  return openRun(url, body, options).finished;
}

/** Polls until the predicate holds or the time is up (for effects that happen after a response ends). */
export async function eventually<T>(
  read: () => Promise<T>,
  predicate: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (predicate(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A run whose events a test watches while it streams (to act mid-run), and can leave (`abort`). */
export interface OpenRun {
  /** The first event (already received or still to come) for which `matches` holds. */
  waitForEvent(matches: (event: BaseEvent) => boolean): Promise<BaseEvent>;
  /** The whole response once the stream ended (or the client left). */
  readonly finished: Promise<SseResponse>;
  /** The events received so far: what a client had heard when its connection died. */
  readonly received: readonly BaseEvent[];
  /** The client disconnects. */
  abort(): void;
}

/** POSTs a run and exposes its events as they arrive (postRun waits for the end of the same). */
export function openRun(url: string, body: unknown, options: PostOptions = {}): OpenRun {
  return openSse(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
    options,
  );
}

/** GETs an event stream (a reattach route) and exposes its events as they arrive. */
export function openEvents(url: string, options: PostOptions = {}): OpenRun {
  return openSse(
    url,
    { method: 'GET', headers: { accept: 'text/event-stream', ...options.headers } },
    options,
  );
}

function openSse(url: string, init: RequestInit, options: PostOptions): OpenRun {
  const controller = new AbortController();
  options.signal?.addEventListener('abort', () => controller.abort());
  const seen: BaseEvent[] = [];
  const waiters = new Set<(event: BaseEvent) => void>();
  const finished = (async (): Promise<SseResponse> => {
    const response = await fetch(url, { ...init, signal: controller.signal });
    const isSse = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    let text = '';
    let parsedUpTo = 0;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        const complete = text.lastIndexOf('\n\n') + 2;
        if (!isSse || complete <= parsedUpTo) continue;
        for (const event of parseSse(text.slice(parsedUpTo, complete)).events) {
          seen.push(event);
          for (const waiter of [...waiters]) waiter(event);
        }
        parsedUpTo = complete;
        const limit = options.disconnectAfterEvents;
        if (limit !== undefined && seen.length >= limit) {
          controller.abort();
          break;
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    const parsed = isSse ? parseSse(text.slice(0, parsedUpTo)) : { events: [], ids: [], comments: [] };
    return { status: response.status, headers: response.headers, text, ...parsed };
  })();
  return {
    waitForEvent: (matches) =>
      new Promise((resolve, reject) => {
        const found = seen.find(matches);
        if (found) return resolve(found);
        const waiter = (event: BaseEvent) => {
          if (!matches(event)) return;
          waiters.delete(waiter);
          resolve(event);
        };
        waiters.add(waiter);
        const sent = () => seen.map((event) => event.type).join(', ');
        finished.then(
          () => reject(new Error(`the run ended without the awaited event; it sent ${sent()}`)),
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        );
      }),
    finished,
    received: seen,
    abort: () => controller.abort(),
  };
}
