import { ConfigurableModuleBuilder, type DynamicModule } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { HealthModule } from '../health/health.module';
import { GATEWAY_ROUTE_PREFIX } from '../http/gateway-route-prefix';
import { HttpRoutesModule } from '../http/http-routes.module';
import { MetricsModule } from '../metrics/metrics.module';
import { DEFAULT_WS_PATH, WsModule } from '../ws/ws.module';
import type { AguiGatewayModuleExtras, AguiGatewayOptions } from './agui-gateway-options';

/** The modules whose controllers carry the HTTP routes, i.e. what a route prefix applies to. */
export const ROUTED_MODULES = [HttpRoutesModule, HealthModule, MetricsModule];

/**
 * Nest's ConfigurableModuleBuilder gives `forRoot(options)` and `forRootAsync({ useFactory, inject,
 * imports })`; the route prefix is an extra because it changes the module graph, which an async factory
 * cannot do.
 */
export const {
  ConfigurableModuleClass: AguiGatewayConfigurableModule,
  MODULE_OPTIONS_TOKEN: AGUI_GATEWAY_OPTIONS,
  OPTIONS_TYPE: AGUI_GATEWAY_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: AGUI_GATEWAY_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<AguiGatewayOptions>({ moduleName: 'AguiGateway' })
  .setClassMethodName('forRoot')
  .setExtras<AguiGatewayModuleExtras>({ routePrefix: undefined, webSocket: {} }, withExtras)
  .build();

function withExtras(definition: DynamicModule, extras: AguiGatewayModuleExtras): DynamicModule {
  const prefix = extras.routePrefix?.replace(/\/+$/, '') ?? '';
  const webSocket = extras.webSocket === false ? undefined : (extras.webSocket ?? {});
  return {
    ...definition,
    imports: [
      ...(definition.imports ?? []),
      ...(prefix ? [RouterModule.register([{ path: prefix, children: ROUTED_MODULES }])] : []),
      ...(webSocket ? [WsModule.at(webSocket.path ?? DEFAULT_WS_PATH)] : []),
    ],
    providers: [...(definition.providers ?? []), { provide: GATEWAY_ROUTE_PREFIX, useValue: prefix }],
    exports: [...(definition.exports ?? []), GATEWAY_ROUTE_PREFIX],
  };
}
