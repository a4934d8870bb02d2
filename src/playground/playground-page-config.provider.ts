import type { FactoryProvider } from '@nestjs/common';
import * as os from 'node:os';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { buildPlaygroundPageConfig, type PlaygroundPageConfig } from './playground-page-config';

export const PLAYGROUND_PAGE_CONFIG = Symbol('PLAYGROUND_PAGE_CONFIG');

/** Built once at boot; the system temp dir is read here, at the edge, so the builder stays pure. */
export const playgroundPageConfigProvider: FactoryProvider<PlaygroundPageConfig> = {
  provide: PLAYGROUND_PAGE_CONFIG,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => buildPlaygroundPageConfig(config, os.tmpdir()),
};
