import { Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { A2aModule } from '../a2a/a2a.module';
import { AuthModule } from '../auth/auth.module';
import { CommonModule } from '../common/common.module';
import { GATEWAY_PARTS, type GatewayParts } from '../config/gateway-parts';
import { resolveGatewayPart } from '../config/resolve-gateway-part';
import { InterruptsModule } from '../interrupts/interrupts.module';
import { MetricsModule } from '../metrics/metrics.module';
import { ThreadsModule } from '../threads/threads.module';
import { RUN_EVENT_HOOKS, type RunEventHook } from './run-event-hook';
import { RunEventHooks } from './run-event-hooks';
import { RunRequestReader } from './run-request-reader';
import { RunService } from './run.service';
import { RunsController } from './runs.controller';
import { SseWriter } from './sse-writer';

@Module({
  imports: [CommonModule, AuthModule, A2aModule, ThreadsModule, InterruptsModule, MetricsModule],
  controllers: [RunsController],
  providers: [
    {
      // The host's hooks (AguiGatewayModule options), none by default.
      provide: RUN_EVENT_HOOKS,
      inject: [{ token: GATEWAY_PARTS, optional: true }, ModuleRef],
      useFactory: (parts: GatewayParts | undefined, moduleRef: ModuleRef): Promise<RunEventHook[]> =>
        Promise.all((parts?.eventHooks ?? []).map((hook) => resolveGatewayPart(hook, moduleRef))),
    },
    RunEventHooks,
    RunRequestReader,
    RunService,
    SseWriter,
  ],
  exports: [RunService],
})
export class RunsModule {}
