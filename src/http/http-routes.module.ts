import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CancellationModule } from '../cancellation/cancellation.module';
import { CommonModule } from '../common/common.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RunLogModule } from '../run-log/run-log.module';
import { RunRequestReader } from '../run-input/run-request-reader';
import { RunsModule } from '../runs/runs.module';
import { CancelController } from './cancel.controller';
import { HostBodyParserShield } from './host-body-parser-shield';
import { ReattachController } from './reattach.controller';
import { ReattachRefusalFilter } from './reattach-refusal.filter';
import { RunsController } from './runs.controller';
import { SseRunRenderer } from './sse-run-renderer';

/** The HTTP edge of a run: the run routes (SSE), the cancel extension and the reattach routes, over the engine's services. */
@Module({
  imports: [CommonModule, AuthModule, MetricsModule, RunsModule, CancellationModule, RunLogModule],
  controllers: [RunsController, CancelController, ReattachController],
  providers: [RunRequestReader, SseRunRenderer, HostBodyParserShield, ReattachRefusalFilter],
})
export class HttpRoutesModule {}

/** The controllers of this module, for the route-scoped middleware (logs, CORS) the gateway registers. */
export const HTTP_ROUTE_CONTROLLERS = [RunsController, CancelController, ReattachController];
