import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { GATEWAY_PARTS, type GatewayPart } from '../config/gateway-parts';
import { resolveGatewayPart } from '../config/resolve-gateway-part';
import { A2aCallObserver } from '../metrics/a2a-call-observer';
import { MetricsModule } from '../metrics/metrics.module';
import { A2A_GATEWAY, type A2aGateway } from './a2a-gateway';
import { A2aHealthIndicator } from './a2a.health';
import { SdkA2aGateway } from './sdk-a2a-gateway';
import { startUpstream } from './start-upstream';
import { A2A_UPSTREAM, CUSTOM_UPSTREAM, RUNNING_UPSTREAM, type RunningUpstream } from './upstream';

/** The parts of a host's `AguiGatewayModule.forRoot` options this module builds (CONTRIBUTING.md). */
export interface A2aParts {
  /** The A2A side of a run. Default: the @a2a-js/sdk client over the configured upstream (none is started when replaced). */
  readonly a2aGateway?: GatewayPart<A2aGateway>;
}

/**
 * The A2A side: starts the upstream while the application initialises (an async factory, so it is up
 * before the app listens), provides the gateway over it, and stops what it started on shutdown.
 */
@Module({
  imports: [TerminusModule, MetricsModule],
  providers: [
    {
      provide: RUNNING_UPSTREAM,
      inject: [APP_CONFIG, { token: GATEWAY_PARTS, optional: true }],
      // A host's own A2A gateway talks to its own upstream: nothing is started for it .
      useFactory: (config: AppConfig, parts: A2aParts | undefined) =>
        parts?.a2aGateway ? CUSTOM_UPSTREAM : startUpstream(config),
    },
    {
      provide: A2A_UPSTREAM,
      inject: [RUNNING_UPSTREAM],
      useFactory: (running: RunningUpstream) => running.descriptor,
    },
    {
      provide: A2A_GATEWAY,
      inject: [
        RUNNING_UPSTREAM,
        APP_CONFIG,
        A2aCallObserver,
        { token: GATEWAY_PARTS, optional: true },
        ModuleRef,
      ],
      useFactory: (
        running: RunningUpstream,
        config: AppConfig,
        observer: A2aCallObserver,
        parts: A2aParts | undefined,
        moduleRef: ModuleRef,
      ): A2aGateway | Promise<A2aGateway> =>
        parts?.a2aGateway
          ? resolveGatewayPart(parts.a2aGateway, moduleRef)
          : new SdkA2aGateway({
              url: running.descriptor.url,
              token: running.token,
              cancelTimeoutMs: config.cancelTimeoutMs,
              idleMs: config.a2aIdleMs,
              callTimeoutMs: config.a2aCallTimeoutMs,
              observer,
            }),
    },
    A2aHealthIndicator,
  ],
  exports: [A2A_GATEWAY, A2A_UPSTREAM, A2aHealthIndicator],
})
export class A2aModule implements OnApplicationShutdown {
  constructor(@Inject(RUNNING_UPSTREAM) private readonly upstream: RunningUpstream) {}

  /** CONTRIBUTING.md: the managed child and the demo server close in onApplicationShutdown. */
  async onApplicationShutdown(): Promise<void> {
    await this.upstream.stop();
  }
}
