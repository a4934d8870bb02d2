import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CancellationModule } from '../cancellation/cancellation.module';
import { CommonModule } from '../common/common.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RunRequestReader } from '../run-input/run-request-reader';
import { RunsModule } from '../runs/runs.module';
import { CancelController } from './cancel.controller';
import { HostBodyParserShield } from './host-body-parser-shield';
import { RunsController } from './runs.controller';
import { SseWriter } from './sse-writer';

/** The HTTP edge of a run: the run routes (SSE) and the cancel extension, over the engine's services. */
@Module({
  imports: [CommonModule, AuthModule, MetricsModule, RunsModule, CancellationModule],
  controllers: [RunsController, CancelController],
  providers: [RunRequestReader, SseWriter, HostBodyParserShield],
})
export class HttpRoutesModule {}

/** The controllers of this module, for the route-scoped middleware (logs, CORS) the gateway registers. */
export const HTTP_ROUTE_CONTROLLERS = [RunsController, CancelController];
