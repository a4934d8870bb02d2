import {
  type Context,
  type Span,
  type Tracer,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { OnApplicationShutdown } from '@nestjs/common';
import {
  type RunSpanAttributes,
  RunTracer,
  SUCCESSFUL_OUTCOMES,
  type TraceAttributes,
  type TraceSpan,
} from './run-tracer';

/** The part of a tracer provider this class needs: a tracer, and a flush on shutdown. */
export interface TracerSource {
  getTracer(name: string, version?: string): Tracer;
  shutdown(): Promise<void>;
}

const TRACER_NAME = 'agui-a2a-gateway';
const propagator = new W3CTraceContextPropagator();

function definedAttributes(attributes: TraceAttributes): Record<string, string | number | boolean> {
  const defined: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) defined[name] = value;
  return defined;
}

function headersOf(spanContext: Context): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagator.inject(spanContext, carrier, defaultTextMapSetter);
  return carrier;
}

class OtelTraceSpan implements TraceSpan {
  private ended = false;
  readonly context: Context;

  constructor(
    private readonly span: Span,
    parent: Context,
  ) {
    this.context = trace.setSpan(parent, span);
  }

  setAttributes(attributes: TraceAttributes): void {
    if (!this.ended) this.span.setAttributes(definedAttributes(attributes));
  }

  activate<T>(fn: () => T): T {
    return context.with(this.context, fn);
  }

  traceHeaders(): Record<string, string> {
    return headersOf(this.context);
  }

  end(outcome: string): void {
    if (this.ended) return;
    this.ended = true;
    this.span.setAttribute('agui.outcome', outcome);
    this.span.setStatus(
      SUCCESSFUL_OUTCOMES.has(outcome)
        ? { code: SpanStatusCode.OK }
        : { code: SpanStatusCode.ERROR, message: outcome },
    );
    this.span.end();
  }
}

/**
 * RunTracer over an OpenTelemetry tracer provider. Span names: `agui.run` for a run, `a2a <method>` for an
 * upstream call (a CLIENT span with `rpc.system=jsonrpc`, `rpc.service=a2a`, `rpc.method`).
 */
export class OtelRunTracer extends RunTracer implements OnApplicationShutdown {
  private readonly tracer: Tracer;

  constructor(
    private readonly provider: TracerSource,
    version?: string,
  ) {
    super();
    this.tracer = provider.getTracer(TRACER_NAME, version);
  }

  startRunSpan(
    attributes: RunSpanAttributes,
    incomingHeaders?: Readonly<Record<string, string | string[] | undefined>>,
  ): TraceSpan {
    const parent = incomingHeaders
      ? propagator.extract(ROOT_CONTEXT, incomingHeaders, defaultTextMapGetter)
      : context.active();
    const span = this.tracer.startSpan(
      'agui.run',
      {
        kind: SpanKind.SERVER,
        attributes: definedAttributes({
          'agui.thread_id': attributes.threadId,
          'agui.run_id': attributes.runId,
          'agui.execution_id': attributes.executionId,
          'agui.face': attributes.face,
          'agui.agentcore_session_id': attributes.agentCoreSessionId,
        }),
      },
      parent,
    );
    return new OtelTraceSpan(span, parent);
  }

  startA2aSpan(method: string, parent?: TraceSpan): TraceSpan {
    const parentContext = parent instanceof OtelTraceSpan ? parent.context : context.active();
    const span = this.tracer.startSpan(
      `a2a ${method}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'rpc.system': 'jsonrpc', 'rpc.service': 'a2a', 'rpc.method': method },
      },
      parentContext,
    );
    return new OtelTraceSpan(span, parentContext);
  }

  traceHeaders(): Record<string, string> {
    return headersOf(context.active());
  }

  /** Flushes the spans still buffered, so the last runs before a shutdown are exported. */
  async onApplicationShutdown(): Promise<void> {
    await this.provider.shutdown();
  }
}
