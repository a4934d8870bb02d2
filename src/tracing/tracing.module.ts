import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { readServiceIdentity } from '../common/service-identity';
import { NoopRunTracer } from './noop-run-tracer';
import { RunTracer } from './run-tracer';

/**
 * Provides RunTracer: OpenTelemetry when IAC_CODE_AGUI_TRACING=true, else the no-op . Modules
 * that start spans (runs, a2a) import this module and inject RunTracer by class.
 */
@Module({
  providers: [
    {
      provide: RunTracer,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig): Promise<RunTracer> => {
        if (!config.tracing) return new NoopRunTracer();
        // The OpenTelemetry SDK and exporter load only when tracing is on (docs/benchmarks.md,
        // `coldStartMs` and `idleRssMb`).
        const { createTracerProvider } = await import('./create-tracer-provider');
        const { OtelRunTracer } = await import('./otel-run-tracer');
        const { serverVersion } = readServiceIdentity();
        return new OtelRunTracer(createTracerProvider({ serviceVersion: serverVersion }), serverVersion);
      },
    },
  ],
  exports: [RunTracer],
})
export class TracingModule {}
