import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  type NodeTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { Test } from '@nestjs/testing';
import { APP_CONFIG } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { createTracerProvider } from './create-tracer-provider';
import { NoopRunTracer } from './noop-run-tracer';
import { OtelRunTracer } from './otel-run-tracer';
import { RunTracer } from './run-tracer';
import { TracingModule } from './tracing.module';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('OtelRunTracer', () => {
  let exporter: InMemorySpanExporter;
  let provider: NodeTracerProvider;
  let tracer: OtelRunTracer;

  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    provider = createTracerProvider({
      serviceVersion: '9.9.9',
      spanProcessor: new SimpleSpanProcessor(exporter),
    });
    tracer = new OtelRunTracer(provider, '9.9.9');
  });
  afterEach(() => tracer.onApplicationShutdown());

  const finished = (name: string): ReadableSpan => {
    const span = exporter.getFinishedSpans().find((s) => s.name === name);
    if (!span) throw new Error(`no finished span ${name}`);
    return span;
  };

  it('records a run span with the run ids and its outcome', () => {
    const run = tracer.startRunSpan({ threadId: 't-1', runId: 'r-1', executionId: 'e-1', face: 'agentcore' });
    run.setAttributes({ 'a2a.task_id': 'task-1', ignored: undefined });
    run.end('success');
    const span = finished('agui.run');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toEqual({
      'agui.thread_id': 't-1',
      'agui.run_id': 'r-1',
      'agui.execution_id': 'e-1',
      'agui.face': 'agentcore',
      'a2a.task_id': 'task-1',
      'agui.outcome': 'success',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.OK });
    expect(span.resource.attributes['service.name']).toBe('agui-a2a-gateway');
    expect(span.resource.attributes['service.version']).toBe('9.9.9');
  });

  it.each([
    { outcome: 'interrupt', status: { code: SpanStatusCode.OK } },
    { outcome: 'A2A_UNAVAILABLE', status: { code: SpanStatusCode.ERROR, message: 'A2A_UNAVAILABLE' } },
  ])('ends a run with $outcome once, whatever comes later', ({ outcome, status }) => {
    const run = tracer.startRunSpan({ threadId: 't', runId: 'r' });
    run.end(outcome);
    run.end('success');
    run.setAttributes({ late: 'x' });
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(finished('agui.run').status).toEqual(status);
    expect(finished('agui.run').attributes.late).toBeUndefined();
  });

  it('makes an A2A call span a CLIENT child of its run, and its headers name the call', () => {
    const run = tracer.startRunSpan({ threadId: 't', runId: 'r' });
    const call = tracer.startA2aSpan('SendStreamingMessage', run);
    const headers = call.traceHeaders();
    call.end('ok');
    run.end('success');
    const runSpan = finished('agui.run');
    const callSpan = finished('a2a SendStreamingMessage');
    expect(callSpan.kind).toBe(SpanKind.CLIENT);
    expect(callSpan.attributes).toMatchObject({
      'rpc.system': 'jsonrpc',
      'rpc.service': 'a2a',
      'rpc.method': 'SendStreamingMessage',
    });
    expect(callSpan.spanContext().traceId).toBe(runSpan.spanContext().traceId);
    expect(callSpan.parentSpanContext?.spanId).toBe(runSpan.spanContext().spanId);
    expect(headers.traceparent).toBe(
      `00-${callSpan.spanContext().traceId}-${callSpan.spanContext().spanId}-01`,
    );
  });

  it('gives W3C headers of the active span, across awaits, and none outside a span', async () => {
    expect(tracer.traceHeaders()).toEqual({});
    const run = tracer.startRunSpan({ threadId: 't', runId: 'r' });
    const { headers, call } = await run.activate(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { headers: tracer.traceHeaders(), call: tracer.startA2aSpan('CancelTask') };
    });
    call.end('ok');
    run.end('success');
    const match = TRACEPARENT.exec(headers.traceparent);
    expect(match?.slice(1)).toEqual([
      finished('agui.run').spanContext().traceId,
      finished('agui.run').spanContext().spanId,
    ]);
    expect(finished('a2a CancelTask').parentSpanContext?.spanId).toBe(
      finished('agui.run').spanContext().spanId,
    );
    expect(tracer.traceHeaders()).toEqual({});
  });

  it('continues the caller trace named by an incoming traceparent', () => {
    const incoming = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const run = tracer.startRunSpan(
      { threadId: 't', runId: 'r' },
      { traceparent: incoming, tracestate: 'k=v' },
    );
    const headers = run.traceHeaders();
    run.end('success');
    const span = finished('agui.run');
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(headers).toEqual({
      traceparent: `00-0af7651916cd43dd8448eb211c80319c-${span.spanContext().spanId}-01`,
      tracestate: 'k=v',
    });
  });
});

describe('NoopRunTracer', () => {
  it('records nothing, sends no headers and still runs the code it wraps', () => {
    const tracer = new NoopRunTracer();
    const run = tracer.startRunSpan();
    expect(tracer.startA2aSpan()).toBe(run);
    expect(run.activate(() => 42)).toBe(42);
    expect(run.traceHeaders()).toEqual({});
    expect(tracer.traceHeaders()).toEqual({});
    expect(() => run.end('A2A_UNAVAILABLE')).not.toThrow();
  });
});

describe('TracingModule', () => {
  it.each([
    { tracing: false, expected: NoopRunTracer },
    { tracing: true, expected: OtelRunTracer },
  ])('provides $expected.name when tracing is $tracing', async ({ tracing, expected }) => {
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule, TracingModule],
    })
      .overrideProvider(APP_CONFIG)
      .useValue({ tracing })
      .compile();
    try {
      expect(moduleRef.get(RunTracer, { strict: false })).toBeInstanceOf(expected);
    } finally {
      await moduleRef.close();
    }
  });
});
