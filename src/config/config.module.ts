import { Global, Module } from '@nestjs/common';
import * as os from 'node:os';
import * as path from 'node:path';
import { APP_CONFIG } from './app-config';
import { loadConfig } from './load-config';

/** The only place that reads process.env; the only @Global() module (STYLE §2.2, §2.6). */
@Global()
@Module({
  providers: [
    {
      provide: APP_CONFIG,
      useFactory: () =>
        loadConfig(process.env, {
          cwd: process.cwd(),
          homeDir: os.homedir(),
          tmpDir: os.tmpdir(),
          pathDelimiter: path.delimiter,
          isTty: Boolean(process.stdout.isTTY),
        }),
    },
  ],
  exports: [APP_CONFIG],
})
export class ConfigModule {}
