import { Module } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { AuthModule } from '../auth/auth.module';
import { CommonModule } from '../common/common.module';
import { InterruptsModule } from '../interrupts/interrupts.module';
import { MetricsModule } from '../metrics/metrics.module';
import { ThreadsModule } from '../threads/threads.module';
import { RunRequestReader } from './run-request-reader';
import { RunService } from './run.service';
import { RunsController } from './runs.controller';
import { SseWriter } from './sse-writer';

@Module({
  imports: [CommonModule, AuthModule, A2aModule, ThreadsModule, InterruptsModule, MetricsModule],
  controllers: [RunsController],
  providers: [RunRequestReader, RunService, SseWriter],
  exports: [RunService],
})
export class RunsModule {}
