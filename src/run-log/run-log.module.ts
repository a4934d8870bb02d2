import { Module } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { CommonModule } from '../common/common.module';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { normalizeLanguage } from '../i18n/negotiate-language';
import { DEFAULT_REDIS_THREAD_STORE_OPTIONS } from '../threads/redis-thread-store-options';
import { SHARED_RUN_LOG, type SharedRunLog } from './shared-run-log';
import { ReattachService } from './reattach.service';
import { RunLogRegistry } from './run-log-registry';

/** Runs that survive their connection (docs/behaviour/reattach.md): their event logs and the reattach check. */
@Module({
  imports: [CommonModule],
  providers: [
    {
      // Redis mode with a window: the logs go to Redis Streams too, so any replica can serve a reattach.
      provide: SHARED_RUN_LOG,
      inject: [APP_CONFIG, CLOCK],
      useFactory: async (config: AppConfig, clock: Clock): Promise<SharedRunLog | null> => {
        if (config.store.kind !== 'redis' || config.reattach.graceMs <= 0) return null;
        const { RedisRunLog } = await import('./redis-run-log');
        const { redisUrl = '', keyPrefix, tls, leaseTtlMs } = config.store;
        return new RedisRunLog(
          {
            redisUrl,
            keyPrefix,
            tls,
            ownerLeaseMs: leaseTtlMs ?? DEFAULT_REDIS_THREAD_STORE_OPTIONS.leaseTtlMs,
            language: normalizeLanguage(config.processLanguage) ?? 'en',
          },
          config.reattach,
          clock,
        );
      },
    },
    RunLogRegistry,
    ReattachService,
  ],
  exports: [RunLogRegistry, ReattachService],
})
export class RunLogModule {}
