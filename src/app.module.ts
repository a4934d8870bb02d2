import { Module } from '@nestjs/common';
import { CancellationModule } from './cancellation/cancellation.module';
import { ConfigModule } from './config/config.module';
import { HealthModule } from './health/health.module';
import { RunsModule } from './runs/runs.module';

/** The standalone service: feature modules only; guards and filters sit on our own controllers. */
@Module({ imports: [ConfigModule, HealthModule, RunsModule, CancellationModule] })
export class AppModule {}
