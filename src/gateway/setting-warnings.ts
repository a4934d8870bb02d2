import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * Says once at boot, one line each, what the configuration warns of: deprecated settings that were set, naming
 * the old setting and what replaces it (docs/operations.md#settings). The configuration itself is loaded pure,
 * possibly more than once; this is its one logger.
 */
@Injectable()
export class SettingWarnings implements OnApplicationBootstrap {
  private readonly logger = new Logger('AguiGatewayModule');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onApplicationBootstrap(): void {
    for (const warning of this.config.settingWarnings) this.logger.warn({ msg: warning });
  }
}
