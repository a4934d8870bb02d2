import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CancellationModule } from '../cancellation/cancellation.module';
import { CorsModule } from '../cors/cors.module';
import { APP_CONFIG } from '../config/app-config';
import { loadGatewayConfig } from '../config/gateway-config';
import { GATEWAY_PARTS, type GatewayParts } from '../config/gateway-parts';
import { HealthModule } from '../health/health.module';
import { LoggingModule } from '../logging/logging.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RunsModule } from '../runs/runs.module';
import { TracingModule } from '../tracing/tracing.module';
import { WsModule } from '../ws/ws.module';
import type { AguiGatewayOptions } from './agui-gateway-options';
import {
  AGUI_GATEWAY_ASYNC_OPTIONS_TYPE,
  AGUI_GATEWAY_OPTIONS,
  AGUI_GATEWAY_OPTIONS_TYPE,
  AguiGatewayConfigurableModule,
} from './agui-gateway.module-definition';

/**
 * The whole gateway as one importable module : `AguiGatewayModule.forRoot(options)` or
 * `forRootAsync({ useFactory, inject, imports })`. It is global only to share APP_CONFIG and the part
 * descriptions with its own feature modules (CONTRIBUTING.md: the one global); guards, pipes and filters are
 * bound on its own controllers, never as APP_* providers, so the host's routes are untouched.
 */
@Global()
@Module({
  imports: [
    LoggingModule,
    CorsModule,
    MetricsModule,
    TracingModule,
    HealthModule,
    RunsModule,
    CancellationModule,
    WsModule,
  ],
  providers: [
    {
      provide: APP_CONFIG,
      inject: [AGUI_GATEWAY_OPTIONS],
      useFactory: (options: AguiGatewayOptions) => loadGatewayConfig(options),
    },
    {
      provide: GATEWAY_PARTS,
      inject: [AGUI_GATEWAY_OPTIONS],
      useFactory: (options: AguiGatewayOptions): GatewayParts => ({
        authenticator: options.authenticator,
        threadStore: options.threadStore,
        a2aGateway: options.a2aGateway,
        clock: options.clock,
        eventHooks: options.eventHooks,
      }),
    },
  ],
  exports: [APP_CONFIG, GATEWAY_PARTS],
})
export class AguiGatewayModule extends AguiGatewayConfigurableModule {
  /** `forRoot()` with no options is the standalone service: settings from process.env, default parts. */
  static override forRoot(options: typeof AGUI_GATEWAY_OPTIONS_TYPE = {}): DynamicModule {
    return super.forRoot(options);
  }

  static override forRootAsync(options: typeof AGUI_GATEWAY_ASYNC_OPTIONS_TYPE): DynamicModule {
    return super.forRootAsync(options);
  }
}
