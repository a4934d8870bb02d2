import { RunTracer, type TraceSpan } from './run-tracer';

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** One shared span that does nothing: tracing off costs a method call, no allocation. */
const NOOP_SPAN: TraceSpan = Object.freeze({
  setAttributes: () => undefined,
  activate: <T>(fn: () => T): T => fn(),
  traceHeaders: () => NO_HEADERS,
  end: () => undefined,
});

/** The RunTracer when IAC_CODE_AGUI_TRACING is off (the default). */
export class NoopRunTracer extends RunTracer {
  startRunSpan(): TraceSpan {
    return NOOP_SPAN;
  }

  startA2aSpan(): TraceSpan {
    return NOOP_SPAN;
  }

  traceHeaders(): Record<string, string> {
    return NO_HEADERS;
  }
}
