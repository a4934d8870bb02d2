import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { CorsModule } from '../cors/cors.module';
import { APP_CONFIG } from '../config/app-config';
import { loadGatewayConfig } from '../config/gateway-config';
import { GATEWAY_PARTS } from '../config/gateway-parts';
import type { GatewayParts } from './gateway-parts';
import { HealthController } from '../health/health.controller';
import { HealthModule } from '../health/health.module';
import { HTTP_ROUTE_CONTROLLERS, HttpRoutesModule } from '../http/http-routes.module';
import { LoggingModule } from '../logging/logging.module';
import { MetricsController } from '../metrics/metrics.controller';
import { MetricsModule } from '../metrics/metrics.module';
import { TracingModule } from '../tracing/tracing.module';
import type { AguiGatewayOptions } from './agui-gateway-options';
import { SettingWarnings } from './setting-warnings';
import { ShutdownSignalCheck } from './shutdown-signal-check';
import {
  AGUI_GATEWAY_ASYNC_OPTIONS_TYPE,
  AGUI_GATEWAY_OPTIONS,
  AGUI_GATEWAY_OPTIONS_TYPE,
  AguiGatewayConfigurableModule,
} from './agui-gateway.module-definition';

/** The gateway's own HTTP controllers: request logs and CORS apply to these routes only (never the host's). */
const GATEWAY_CONTROLLERS = [...HTTP_ROUTE_CONTROLLERS, HealthController, MetricsController];

/**
 * The whole gateway as one importable module : `AguiGatewayModule.forRoot(options)` or
 * `forRootAsync({ useFactory, inject, imports })`. It is global only to share APP_CONFIG and the part
 * descriptions with its own feature modules (CONTRIBUTING.md: the one global); guards, pipes and filters are
 * bound on its own controllers, never as APP_* providers, so the host's routes are untouched.
 */
@Global()
@Module({
  imports: [
    LoggingModule.forRoutes(GATEWAY_CONTROLLERS),
    CorsModule.forRoutes(GATEWAY_CONTROLLERS),
    MetricsModule,
    TracingModule,
    HealthModule,
    HttpRoutesModule,
  ],
  providers: [
    ShutdownSignalCheck,
    SettingWarnings,
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
        threadCluster: options.threadCluster,
        a2aGateway: options.a2aGateway,
        clock: options.clock,
        eventHooks: options.eventHooks,
        eventOperators: options.eventOperators,
      }),
    },
  ],
  exports: [APP_CONFIG, GATEWAY_PARTS],
})
export class AguiGatewayModule extends AguiGatewayConfigurableModule {
  /**
   * One gateway per application: a second `forRoot` would share the first one's global tokens and its
   * routes would never answer, so the start fails instead, naming what to do.
   */
  constructor(modules: ModulesContainer) {
    super();
    const instances = [...modules.values()].filter((module) => module.metatype === AguiGatewayModule);
    if (instances.length > 1)
      throw new Error(
        'AguiGatewayModule is imported more than once (two forRoot/forRootAsync calls): import it once, at the ' +
          'application root, and give that one import every option (docs/embedding.md#one-gateway-per-application).',
      );
  }

  /** `forRoot()` with no options is the standalone service: settings from process.env, default parts. */
  static override forRoot(options: typeof AGUI_GATEWAY_OPTIONS_TYPE = {}): DynamicModule {
    return super.forRoot(options);
  }

  static override forRootAsync(options: typeof AGUI_GATEWAY_ASYNC_OPTIONS_TYPE): DynamicModule {
    return super.forRootAsync(options);
  }
}
