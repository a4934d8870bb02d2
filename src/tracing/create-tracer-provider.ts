import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

/**
 * The tracer provider used when IAC_CODE_AGUI_TRACING=true. The OTLP/HTTP exporter and the SDK read the
 * standard OTEL_* variables themselves (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER…): the one
 * documented exception to "only src/config reads the environment", since those names belong to OTel.
 *
 * `register` makes it the global provider and installs the async-hooks context manager, so
 * `TraceSpan.activate` carries the active span across awaits; the global propagator is left alone
 * (RunTracer injects W3C headers itself). A second registration in one process (tests) is ignored by the
 * OTel API, and the first context manager serves every provider.
 */
export function createTracerProvider(options: {
  readonly serviceVersion: string;
  /** Tests pass an in-memory processor; the default batches spans to the OTLP/HTTP exporter. */
  readonly spanProcessor?: SpanProcessor;
  readonly exporter?: SpanExporter;
}): NodeTracerProvider {
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: 'agui-a2a-gateway',
    [ATTR_SERVICE_VERSION]: options.serviceVersion,
  }).merge(detectResources({ detectors: [envDetector] }));
  const processor =
    options.spanProcessor ?? new BatchSpanProcessor(options.exporter ?? new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register({ propagator: null });
  return provider;
}
