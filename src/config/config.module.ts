import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from './app-config';
import { loadProcessConfig } from './process-config';

/** Provides APP_CONFIG; the only @Global() module (CONTRIBUTING.md). Tests override APP_CONFIG with loadConfig(env). */
@Global()
@Module({
  providers: [{ provide: APP_CONFIG, useFactory: loadProcessConfig }],
  exports: [APP_CONFIG],
})
export class ConfigModule {}
