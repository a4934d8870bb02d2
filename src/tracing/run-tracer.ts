/** Attribute values a span accepts; undefined values are dropped. */
export type TraceAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** What a run span records about its run (the ids a reader needs, as in the logs: CONTRIBUTING.md). */
export interface RunSpanAttributes {
  readonly threadId: string;
  readonly runId: string;
  readonly executionId?: string;
  /** `iac-code`, `agentcore` or `ws`. */
  readonly face?: string;
  readonly agentCoreSessionId?: string;
}

/** One span of a run or of an A2A call. Every method is safe to call after `end`. */
export interface TraceSpan {
  /** Attributes learned later, such as the A2A task id (`a2a.task_id`). */
  setAttributes(attributes: TraceAttributes): void;
  /** Runs `fn` with this span active: spans started and `traceHeaders()` taken inside are its children. */
  activate<T>(fn: () => T): T;
  /** W3C `traceparent` (and `tracestate`) naming this span, for the upstream request it wraps. */
  traceHeaders(): Record<string, string>;
  /** `success`, `interrupt` or `ok` end it well; anything else (an error code) marks it failed. The first call wins. */
  end(outcome: string): void;
}

/**
 * Optional OpenTelemetry tracing (IAC_CODE_AGUI_TRACING): a span per run and per A2A call, and
 * W3C trace context for the A2A upstream. Injected by class; with tracing off it is a no-op that allocates
 * nothing per run.
 */
export abstract class RunTracer {
  /** Starts a run's span; its parent is the caller's `traceparent` when `incomingHeaders` carry one. */
  abstract startRunSpan(
    attributes: RunSpanAttributes,
    incomingHeaders?: Readonly<Record<string, string | string[] | undefined>>,
  ): TraceSpan;
  /** Starts an A2A call's span (`method` is the JSON-RPC method), a child of `parent` or of the active span. */
  abstract startA2aSpan(method: string, parent?: TraceSpan): TraceSpan;
  /** W3C trace context headers of the active span; empty when there is none or tracing is off. */
  abstract traceHeaders(): Record<string, string>;
}

/** Outcomes that end a span without an error status. */
export const SUCCESSFUL_OUTCOMES: ReadonlySet<string> = new Set(['success', 'interrupt', 'ok']);
