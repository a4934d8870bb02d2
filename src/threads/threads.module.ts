import { Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { CLOCK, type Clock } from '../common/clock';
import { CommonModule } from '../common/common.module';
import { MetricsModule } from '../metrics/metrics.module';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { GATEWAY_PARTS, type GatewayPart } from '../config/gateway-parts';
import { resolveGatewayPart } from '../config/resolve-gateway-part';
import { FileThreadStore } from './file-thread-store';
import {
  DEFAULT_REDIS_THREAD_STORE_OPTIONS,
  REDIS_THREAD_STORE_OPTIONS,
  type RedisThreadStoreOptions,
} from './redis-thread-store-options';
import { ThreadAdmissionService } from './thread-admission.service';
import { isThreadCluster, THREAD_CLUSTER, type ThreadCluster } from './thread-cluster';
import { ThreadRegistry } from './thread-registry';
import { THREAD_STORE, type ThreadStore } from './thread-store';
import { ThreadStoreHealthIndicator } from './thread-store.health';

/** The parts of a host's `AguiGatewayModule.forRoot` options this module builds (CONTRIBUTING.md). */
export interface ThreadsParts {
  /** Durable thread state. Default: files, or Redis when IAC_CODE_AGUI_STATE_STORE=redis. */
  readonly threadStore?: GatewayPart<ThreadStore>;
  /**
   * The scale-out port (docs/embedding.md#scale-out): a per-thread lock, versioned compare-and-set writes, run
   * leases with fencing tokens and a cancel broadcast, shared by every replica. With it the registry reads and
   * writes through it (the store keeps the readiness probe); without it a host's store is single-replica.
   * Default: the Redis store when IAC_CODE_AGUI_STATE_STORE=redis, else none.
   */
  readonly threadCluster?: GatewayPart<ThreadCluster>;
}

/** Durable thread state: the store chosen from configuration, the registry and admission. */
@Module({
  imports: [CommonModule, TerminusModule, MetricsModule],
  providers: [
    { provide: REDIS_THREAD_STORE_OPTIONS, useValue: DEFAULT_REDIS_THREAD_STORE_OPTIONS },
    {
      provide: THREAD_STORE,
      inject: [
        APP_CONFIG,
        REDIS_THREAD_STORE_OPTIONS,
        { token: GATEWAY_PARTS, optional: true },
        ModuleRef,
        CLOCK,
      ],
      useFactory: (
        config: AppConfig,
        options: RedisThreadStoreOptions,
        parts: ThreadsParts | undefined,
        moduleRef: ModuleRef,
        clock: Clock,
      ): ThreadStore | Promise<ThreadStore> =>
        // A host's store (AguiGatewayModule options) replaces the configured one.
        // loadConfig refuses `redis` without a URL, so redisUrl is set here.
        parts?.threadStore
          ? resolveGatewayPart(parts.threadStore, moduleRef)
          : config.store.kind === 'redis'
            ? loadRedisThreadStore().then(async ({ RedisThreadStore }) => {
                const store = new RedisThreadStore(
                  {
                    redisUrl: config.store.redisUrl ?? '',
                    keyPrefix: config.store.keyPrefix,
                    tls: config.store.tls,
                    allowVolatile: config.store.allowVolatile,
                  },
                  {
                    ...options,
                    ...(config.store.leaseTtlMs === undefined ? {} : { leaseTtlMs: config.store.leaseTtlMs }),
                  },
                  clock,
                );
                // A refused start must not leave the client connected (a host's test would hang on it).
                await store.verifyDurability().catch(async (error: unknown) => {
                  await store.onApplicationShutdown();
                  throw error;
                });
                return store;
              })
            : new FileThreadStore(config.stateDir, { clock }),
    },
    {
      // The same Redis store seen as a cluster (docs/architecture.md#decisions); null keeps the registry in-process.
      provide: THREAD_CLUSTER,
      inject: [THREAD_STORE, { token: GATEWAY_PARTS, optional: true }, ModuleRef],
      useFactory: (
        store: ThreadStore,
        parts: ThreadsParts | undefined,
        moduleRef: ModuleRef,
      ): ThreadCluster | null | Promise<ThreadCluster> =>
        parts?.threadCluster
          ? resolveGatewayPart(parts.threadCluster, moduleRef)
          : isThreadCluster(store)
            ? store
            : null,
    },
    ThreadRegistry,
    ThreadAdmissionService,
    ThreadStoreHealthIndicator,
  ],
  exports: [ThreadRegistry, ThreadAdmissionService, ThreadStoreHealthIndicator],
})
export class ThreadsModule {}

/**
 * The Redis store (and ioredis with it) is loaded only in Redis mode; a store that is also a cluster says so
 * itself (`isThreadCluster`). Called by the factory above, so defined after the module class.
 */
const loadRedisThreadStore = () => import('./redis-thread-store');
