import {
  EventType,
  HttpAgent,
  enforceOutgoingInput,
  type BaseEvent,
  type HttpAgentConfig,
  type RunAgentInput,
} from '@ag-ui/client';
import { createParser } from 'eventsource-parser';
import { Observable, type Subscriber } from 'rxjs';

/** How a run whose stream dropped is followed again (docs/behaviour/reattach.md#the-client). */
export interface ReattachPolicy {
  /** Reattaches tried in a row without an event in between before the run fails; default 5. */
  readonly maxAttempts?: number;
  /** The wait before the first reattach, doubled after each failed one; default 250 ms. */
  readonly initialDelayMs?: number;
  /** The longest wait between two reattaches; default 4,000 ms. */
  readonly maxDelayMs?: number;
}

export interface ReattachingHttpAgentConfig extends HttpAgentConfig {
  readonly reattach?: ReattachPolicy;
}

/**
 * The gateway refused the run or its reattach before any stream (a busy thread; a run ended long ago, or
 * not the caller's: `EXECUTION_NOT_FOUND`; `EVENTS_EXPIRED`): following it again cannot help. Like
 * HttpAgent's own HTTP error it carries the `status` and the parsed body (`payload`).
 */
export class GatewayRefusalError extends Error {
  override name = 'GatewayRefusalError';
  readonly code: string | undefined;
  constructor(
    readonly status: number,
    readonly payload: unknown,
  ) {
    const code = (payload as { error?: { code?: unknown } } | undefined)?.error?.code;
    super(`the gateway refused the request: HTTP ${status}${typeof code === 'string' ? ` ${code}` : ''}`);
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/**
 * An `HttpAgent` for this gateway whose runs survive a dropped connection (the gateway needs
 * IAC_CODE_AGUI_REATTACH_SECONDS above 0). During `runAgent`, a stream that ends or fails before its
 * terminal event is followed again from the last event id over the thread's reattach route, with bounded
 * attempts and backoff (reset by every event): the subscriber sees one uninterrupted run. `abortRun()` is an
 * abort, never a reconnect. `connect()` (used by `connectAgent()`, which CopilotKit calls when it opens a
 * thread) follows the thread's running run, or the one that just ended, to its end.
 */
export class ReattachingHttpAgent extends HttpAgent {
  private readonly policy: Required<ReattachPolicy>;

  constructor(config: ReattachingHttpAgentConfig) {
    super(config);
    this.policy = {
      maxAttempts: config.reattach?.maxAttempts ?? 5,
      initialDelayMs: config.reattach?.initialDelayMs ?? 250,
      maxDelayMs: config.reattach?.maxDelayMs ?? 4000,
    };
  }

  override run(input: RunAgentInput): Observable<BaseEvent> {
    const outgoing = enforceOutgoingInput(input);
    return this.follow(input, () => this.fetch(this.url, this.requestInit(outgoing)));
  }

  override connect(input: RunAgentInput): Observable<BaseEvent> {
    return this.follow(input, (signal) => this.reattach(input, undefined, signal));
  }

  override clone(): ReattachingHttpAgent {
    const cloned = super.clone() as ReattachingHttpAgent;
    Object.setPrototypeOf(cloned, Object.getPrototypeOf(this));
    (cloned as unknown as { policy: Required<ReattachPolicy> }).policy = this.policy;
    return cloned;
  }

  private follow(
    input: RunAgentInput,
    open: (signal: AbortSignal) => Promise<Response>,
  ): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      // abortRun() aborts the agent's controller; an unsubscribe (detachActiveRun) only this stream.
      const stop = new AbortController();
      const agentSignal = this.abortController.signal;
      const signal = AbortSignal.any([agentSignal, stop.signal]);
      void this.stream(input, open, signal, subscriber).then(
        () => subscriber.complete(),
        (error: unknown) => subscriber.error(error),
      );
      return () => stop.abort();
    });
  }

  private async stream(
    input: RunAgentInput,
    open: (signal: AbortSignal) => Promise<Response>,
    signal: AbortSignal,
    subscriber: Subscriber<BaseEvent>,
  ): Promise<void> {
    let lastId: string | undefined;
    let failedAttempts = 0;
    let request = open;
    for (;;) {
      let hasEnded = false;
      try {
        const response = await request(signal);
        if (!response.ok || !response.body) throw await refusalOf(response);
        const parser = createParser({
          onEvent: (message) => {
            if (hasEnded) return;
            const event = JSON.parse(message.data) as BaseEvent;
            if (message.id) lastId = message.id;
            failedAttempts = 0;
            subscriber.next(event);
            hasEnded = event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
          },
        });
        const decoder = new TextDecoder();
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          parser.feed(decoder.decode(chunk, { stream: true }));
          if (hasEnded) break;
        }
        if (hasEnded) return;
      } catch (error) {
        if (signal.aborted || error instanceof GatewayRefusalError || error instanceof SyntaxError)
          throw error;
      }
      // The signal's own reason: an AbortError DOMException unless the caller gave another.
      if (signal.aborted) throw signal.reason;
      // The stream dropped before its terminal event: follow the run again from the last event seen.
      if (++failedAttempts > this.policy.maxAttempts)
        throw new Error(`the run's stream dropped and ${this.policy.maxAttempts} reattaches failed`);
      await delay(
        Math.min(this.policy.initialDelayMs * 2 ** (failedAttempts - 1), this.policy.maxDelayMs),
        signal,
      );
      const cursor = lastId;
      request = (abort) => this.reattach(input, cursor, abort);
    }
  }

  /** GET the thread's reattach route, from `cursor` (undefined: from the run's first event). */
  private reattach(input: RunAgentInput, cursor: string | undefined, signal: AbortSignal): Promise<Response> {
    const url = new URL(
      `extensions/iac-code/v1/threads/${encodeURIComponent(input.threadId)}/events`,
      this.url,
    );
    url.searchParams.set('rosInvocationId', rosInvocationIdOf(input));
    return this.fetch(url.toString(), {
      method: 'GET',
      headers: {
        ...this.headers,
        Accept: 'text/event-stream',
        ...(cursor ? { 'Last-Event-ID': cursor } : {}),
      },
      signal,
    });
  }
}

/** The run's `forwardedProps.iacCode.rosInvocationId`; generic clients' runs use their run id. */
function rosInvocationIdOf(input: RunAgentInput): string {
  const props = input.forwardedProps as { iacCode?: { rosInvocationId?: unknown } } | undefined;
  const id = props?.iacCode?.rosInvocationId;
  return typeof id === 'string' && id !== '' ? id : input.runId;
}

async function refusalOf(response: Response): Promise<GatewayRefusalError> {
  const text = await response.text().catch(() => '');
  let payload: unknown = text;
  try {
    payload = JSON.parse(text);
  } catch {
    // Not JSON (an AgentCore-form refusal is one RUN_ERROR frame): the text is the payload.
  }
  return new GatewayRefusalError(response.status, payload);
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
