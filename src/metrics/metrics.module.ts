import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CommonModule } from '../common/common.module';
import { TracingModule } from '../tracing/tracing.module';
import { A2aCallObserver } from './a2a-call-observer';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsController } from './metrics.controller';
import { RunMetrics } from './run-metrics';
import { RunTelemetry } from './run-telemetry';

/**
 * Prometheus metrics . Modules whose code counts something import this module and inject
 * RunMetrics, or the two helpers over it and RunTracer: RunTelemetry (a run) and A2aCallObserver (an A2A
 * call). Nest builds one instance of each for the whole app; `/metrics` exposes RunMetrics.
 */
@Module({
  imports: [AuthModule, CommonModule, TracingModule],
  controllers: [MetricsController],
  providers: [RunMetrics, RunTelemetry, A2aCallObserver, MetricsAccessGuard],
  exports: [RunMetrics, RunTelemetry, A2aCallObserver, TracingModule],
})
export class MetricsModule {}
