import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CommonModule } from '../common/common.module';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { FileThreadStore } from './file-thread-store';
import { ThreadAdmissionService } from './thread-admission.service';
import { ThreadRegistry } from './thread-registry';
import { THREAD_STORE } from './thread-store';
import { ThreadStoreHealthIndicator } from './thread-store.health';

/** Durable thread state: the store chosen from configuration, the registry and admission. */
@Module({
  imports: [CommonModule, TerminusModule],
  providers: [
    {
      provide: THREAD_STORE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new FileThreadStore(config.stateDir),
    },
    ThreadRegistry,
    ThreadAdmissionService,
    ThreadStoreHealthIndicator,
  ],
  exports: [ThreadRegistry, ThreadAdmissionService, ThreadStoreHealthIndicator],
})
export class ThreadsModule {}
