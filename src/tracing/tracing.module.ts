import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { readServiceIdentity } from '../health/service-identity';
import { createTracerProvider } from './create-tracer-provider';
import { NoopRunTracer } from './noop-run-tracer';
import { OtelRunTracer } from './otel-run-tracer';
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
      useFactory: (config: AppConfig): RunTracer => {
        if (!config.tracing) return new NoopRunTracer();
        const { serverVersion } = readServiceIdentity();
        return new OtelRunTracer(createTracerProvider({ serviceVersion: serverVersion }), serverVersion);
      },
    },
  ],
  exports: [RunTracer],
})
export class TracingModule {}
