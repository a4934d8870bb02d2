import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { A2aCallObserver } from '../metrics/a2a-call-observer';
import { MetricsModule } from '../metrics/metrics.module';
import { A2A_GATEWAY } from './a2a-gateway';
import { A2aHealthIndicator } from './a2a.health';
import { SdkA2aGateway } from './sdk-a2a-gateway';
import { startUpstream } from './start-upstream';
import { A2A_UPSTREAM, RUNNING_UPSTREAM, type RunningUpstream } from './upstream';

/**
 * The A2A side: starts the upstream while the application initialises (an async factory, so it is up
 * before the app listens), provides the gateway over it, and stops what it started on shutdown.
 */
@Module({
  imports: [TerminusModule, MetricsModule],
  providers: [
    {
      provide: RUNNING_UPSTREAM,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => startUpstream(config),
    },
    {
      provide: A2A_UPSTREAM,
      inject: [RUNNING_UPSTREAM],
      useFactory: (running: RunningUpstream) => running.descriptor,
    },
    {
      provide: A2A_GATEWAY,
      inject: [RUNNING_UPSTREAM, APP_CONFIG, A2aCallObserver],
      useFactory: (running: RunningUpstream, config: AppConfig, observer: A2aCallObserver) =>
        new SdkA2aGateway({
          url: running.descriptor.url,
          token: running.token,
          cancelTimeoutMs: config.cancelTimeoutMs,
          observer,
        }),
    },
    A2aHealthIndicator,
  ],
  exports: [A2A_GATEWAY, A2A_UPSTREAM, A2aHealthIndicator],
})
export class A2aModule implements OnApplicationShutdown {
  constructor(@Inject(RUNNING_UPSTREAM) private readonly upstream: RunningUpstream) {}

  /** STYLE §2.2: the managed child and the demo server close in onApplicationShutdown. */
  async onApplicationShutdown(): Promise<void> {
    await this.upstream.stop();
  }
}
