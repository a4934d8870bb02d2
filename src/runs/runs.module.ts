import { Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { A2aModule } from '../a2a/a2a.module';
import { CommonModule } from '../common/common.module';
import { GATEWAY_PARTS, type GatewayPart } from '../config/gateway-parts';
import { resolveGatewayPart } from '../config/resolve-gateway-part';
import { InterruptsModule } from '../interrupts/interrupts.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RunLogModule } from '../run-log/run-log.module';
import { ThreadsModule } from '../threads/threads.module';
import { RUN_EVENT_HOOKS, type RunEventHook } from './run-event-hook';
import { RunEventHooks } from './run-event-hooks';
import { RUN_EVENT_OPERATORS, type RunEventOperator } from './run-event-operator';
import { RunAdmission } from './run-admission';
import { RunService } from './run.service';

/** The parts of a host's `AguiGatewayModule.forRoot` options this module builds (CONTRIBUTING.md). */
export interface RunsParts {
  /** Observers of every AG-UI event and run outcome, called in order; their failures are logged, never sent. */
  readonly eventHooks?: readonly GatewayPart<RunEventHook>[];
  /**
   * RxJS operators applied, in order, to every run's AG-UI events before they are sent, on every transport
   * (docs/extending.md#run-operators); none by default.
   */
  readonly eventOperators?: readonly RunEventOperator[];
}

@Module({
  imports: [CommonModule, A2aModule, ThreadsModule, InterruptsModule, MetricsModule, RunLogModule],
  providers: [
    {
      // The host's hooks (AguiGatewayModule options), none by default.
      provide: RUN_EVENT_HOOKS,
      inject: [{ token: GATEWAY_PARTS, optional: true }, ModuleRef],
      useFactory: (parts: RunsParts | undefined, moduleRef: ModuleRef): Promise<RunEventHook[]> =>
        Promise.all((parts?.eventHooks ?? []).map((hook) => resolveGatewayPart(hook, moduleRef))),
    },
    {
      provide: RUN_EVENT_OPERATORS,
      inject: [{ token: GATEWAY_PARTS, optional: true }],
      useFactory: (parts: RunsParts | undefined): readonly RunEventOperator[] => parts?.eventOperators ?? [],
    },
    RunEventHooks,
    RunAdmission,
    RunService,
  ],
  exports: [RunService],
})
export class RunsModule {}
