import { Module } from '@nestjs/common';
import { CancellationModule } from './cancellation/cancellation.module';
import { ConfigModule } from './config/config.module';
import { HealthModule } from './health/health.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { PlaygroundModule } from './playground/playground.module';
import { RunsModule } from './runs/runs.module';
import { TracingModule } from './tracing/tracing.module';
import { WsModule } from './ws/ws.module';

/** The standalone service: feature modules only; guards and filters sit on our own controllers. */
@Module({
  imports: [
    ConfigModule,
    LoggingModule,
    MetricsModule,
    TracingModule,
    HealthModule,
    RunsModule,
    CancellationModule,
    WsModule,
    PlaygroundModule,
  ],
})
export class AppModule {}
