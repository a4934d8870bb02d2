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
import { cancelExecution, type CancelAnswer, type ExecutionToCancel } from './cancel-execution.js';

/** The gateway's CUSTOM event naming the run's execution (docs/behaviour/events.md#session-event). */
const SESSION_EVENT_NAME = 'iac-code.session.v1';

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
 * attempts and backoff (reset by every event): the subscriber sees one uninterrupted run. `abortRun()`
 * (CopilotKit's Stop) cancels the run's execution over the cancel extension, and the run ends with the
 * gateway's RUN_ERROR CANCELLED (an abort when there is nothing to cancel yet); it never reconnects. `connect()` (used by `connectAgent()`, which CopilotKit calls when it opens a
 * thread) follows the thread's running run, or the one that just ended, to its end, and completes with no
 * events when the thread has none (docs/behaviour/reattach.md#the-client).
 */
export class ReattachingHttpAgent extends HttpAgent {
  private readonly policy: Required<ReattachPolicy>;
  /** The execution the current run's session event named, with that run's agent signal. */
  private session?: { readonly signal: AbortSignal; readonly target: ExecutionToCancel };
  /** The last Stop's cancel, settled once the gateway answered it; the next run waits for it. */
  private stopAnswered?: Promise<CancelAnswer | undefined>;

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
    return this.follow(input, (signal) => this.post(outgoing, signal), false);
  }

  override connect(input: RunAgentInput): Observable<BaseEvent> {
    return this.follow(input, (signal) => this.reattach(input, undefined, signal), true);
  }

  /**
   * Stop: the run's execution is cancelled over the cancel extension (the kernel stops; the thread takes
   * the next prompt), and the run ends with the gateway's own terminal event, `RUN_ERROR CANCELLED`. Before
   * the run's session event, or when the cancel fails or is refused, it is HttpAgent's abort: the gateway
   * then treats it as a dropped connection (docs/behaviour/reattach.md#the-client).
   */
  override abortRun(): void {
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- cancelRun() never rejects: a failed cancel is answered undefined (and aborts)
    void this.cancelRun();
  }

  /** What `abortRun()` does, with the cancel's answer (undefined: nothing to cancel, or the request failed). */
  cancelRun(): Promise<CancelAnswer | undefined> {
    const controller = this.abortController;
    const target = this.session?.signal === controller.signal ? this.session.target : undefined;
    this.session = undefined;
    if (!target || controller.signal.aborted) {
      controller.abort();
      return Promise.resolve(undefined);
    }
    const answered = cancelExecution(this.fetch, this.url, this.headers, target).then(
      (answer) => {
        if (answer.kind !== 'answered') controller.abort();
        return answer;
      },
      () => {
        controller.abort();
        return undefined;
      },
    );
    this.stopAnswered = answered;
    return answered;
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
    isConnect: boolean,
  ): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      // abortRun() aborts the agent's controller; an unsubscribe (detachActiveRun) only this stream.
      const detach = new AbortController();
      const agentSignal = this.abortController.signal;
      const signal = AbortSignal.any([agentSignal, detach.signal]);
      void this.stream(input, open, { agentSignal, signal, isConnect }, subscriber).then(
        () => subscriber.complete(),
        (error: unknown) => subscriber.error(error),
      );
      return () => detach.abort();
    });
  }

  private async stream(
    input: RunAgentInput,
    open: (signal: AbortSignal) => Promise<Response>,
    how: { readonly agentSignal: AbortSignal; readonly signal: AbortSignal; readonly isConnect: boolean },
    subscriber: Subscriber<BaseEvent>,
  ): Promise<void> {
    const { agentSignal, signal } = how;
    let lastId: string | undefined;
    let failedAttempts = 0;
    let request = open;
    for (;;) {
      let hasEnded = false;
      try {
        const response = await request(signal);
        if (!response.ok || !response.body) {
          const refusal = await refusalOf(response);
          // Nothing in flight on the thread (and nothing ended within the window): HttpAgent's quiet connect.
          if (how.isConnect && lastId === undefined && refusal.code === 'EXECUTION_NOT_FOUND') return;
          throw refusal;
        }
        const parser = createParser({
          onEvent: (message) => {
            if (hasEnded) return;
            const event = JSON.parse(message.data) as BaseEvent;
            if (message.id) lastId = message.id;
            failedAttempts = 0;
            this.noteSession(input, event, agentSignal);
            subscriber.next(event);
            hasEnded = event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;
          },
        });
        const decoder = new TextDecoder();
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          parser.feed(decoder.decode(chunk, { stream: true }));
          if (hasEnded) break;
        }
        if (hasEnded) {
          if (this.session?.signal === agentSignal) this.session = undefined;
          return;
        }
      } catch (error) {
        if (signal.aborted || error instanceof GatewayRefusalError || error instanceof SyntaxError)
          throw error;
      }
      // The signal's own reason: an AbortError DOMException unless the caller gave another.
      if (signal.aborted) throw signal.reason;
      // The stream dropped before its terminal event: follow the run again from the last event seen.
      if (++failedAttempts > this.policy.maxAttempts)
        throw new Error(`the run's stream dropped and ${this.policy.maxAttempts} reattaches failed`);
      await delay(this.backoff(failedAttempts), signal);
      const cursor = lastId;
      request = (abort) => this.reattach(input, cursor, abort);
    }
  }

  /** Remembers the execution a session event names: what a Stop of this run cancels. */
  private noteSession(input: RunAgentInput, event: BaseEvent, signal: AbortSignal): void {
    if (event.type !== EventType.CUSTOM || (event as { name?: unknown }).name !== SESSION_EVENT_NAME) return;
    const value = (event as { value?: { executionId?: unknown; rosInvocationId?: unknown } }).value;
    if (typeof value?.executionId !== 'string' || typeof value.rosInvocationId !== 'string') return;
    this.session = {
      signal,
      target: {
        executionId: value.executionId,
        threadId: input.threadId,
        rosInvocationId: value.rosInvocationId,
      },
    };
  }

  /**
   * POSTs the run. After a Stop, it waits for that cancel's answer first: the gateway answers a cancel once
   * the cancelled run has freed the thread, on whichever replica ran it (bounded by its cancel timeout,
   * docs/behaviour/cancel.md#cancel-route), so the run is admitted and a `409 THREAD_BUSY` is a refusal.
   */
  private async post(outgoing: RunAgentInput, signal: AbortSignal): Promise<Response> {
    const stopAnswered = this.stopAnswered;
    this.stopAnswered = undefined;
    if (stopAnswered) await stopAnswered;
    return this.fetch(this.url, { ...this.requestInit(outgoing), signal });
  }

  private backoff(attempt: number): number {
    return Math.min(this.policy.initialDelayMs * 2 ** (attempt - 1), this.policy.maxDelayMs);
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
