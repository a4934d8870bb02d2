import { Logger, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { GATEWAY_PARTS, type GatewayPart } from '../config/gateway-parts';
import { resolveGatewayPart } from '../config/resolve-gateway-part';
import { I18nModule } from '../i18n/i18n.module';
import { ActivityTracker } from './activity-tracker';
import { BodyBudget } from './body-budget';
import { CLOCK, SystemClock, type Clock } from './clock';
import { JsonEnvelopeFilter } from './filters/json-envelope.filter';
import { SseRunErrorFilter } from './filters/sse-run-error.filter';
import { MemoryReclaimer, processHeapControl } from './memory-reclaimer';
import { ServiceLifecycle } from './service-lifecycle';

/** The parts of a host's `AguiGatewayModule.forRoot` options this module builds (CONTRIBUTING.md). */
export interface CommonParts {
  /** Time and ids. Default: the system clock and random UUIDs. */
  readonly clock?: GatewayPart<Clock>;
}

/** Cross-cutting providers: the clock and the two error renderers (bound per controller, never globally). */
@Module({
  imports: [I18nModule],
  providers: [
    {
      // A host's clock (AguiGatewayModule options) or the system clock.
      provide: CLOCK,
      inject: [{ token: GATEWAY_PARTS, optional: true }, ModuleRef],
      useFactory: (parts: CommonParts | undefined, moduleRef: ModuleRef): Clock | Promise<Clock> =>
        parts?.clock ? resolveGatewayPart(parts.clock, moduleRef) : new SystemClock(),
    },
    JsonEnvelopeFilter,
    SseRunErrorFilter,
    ServiceLifecycle,
    ActivityTracker,
    BodyBudget,
    {
      // Collects what bodies leave behind: under pressure once a budget's worth was given back, and when quiet.
      // Only when asked (the standalone service asks; a host gets none unless it sets `memoryReclaimer`) and only
      // in a process started with `node --expose-gc` (docs/behaviour/bounds.md#memory-reclaimer).
      provide: MemoryReclaimer,
      inject: [{ token: APP_CONFIG, optional: true }, BodyBudget],
      useFactory: (config: AppConfig | undefined, budget: BodyBudget): MemoryReclaimer | null => {
        if (!config?.memoryReclaimer || config.memoryReclaimMs === 0) return null;
        const heap = processHeapControl();
        if (!heap) {
          new Logger(MemoryReclaimer.name).log({
            msg: 'memory reclaimer off: node was started without --expose-gc',
          });
          return null;
        }
        const reclaimer = new MemoryReclaimer(heap, {
          intervalMs: config.memoryReclaimMs,
          pressureBytes: budget.maxBytes,
        });
        budget.onRelease((bytes) => reclaimer.noteBodyReleased(bytes));
        return reclaimer;
      },
    },
  ],
  exports: [
    ActivityTracker,
    BodyBudget,
    CLOCK,
    JsonEnvelopeFilter,
    SseRunErrorFilter,
    ServiceLifecycle,
    I18nModule,
  ],
})
export class CommonModule {}
