import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** Ready only when the state directory exists (or can be created owner-private) and is writable. */
@Injectable()
export class StateDirHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async isHealthy(key = 'stateDir') {
    const indicator = this.health.check(key);
    try {
      await mkdir(this.config.stateDir, { recursive: true, mode: 0o700 });
      await access(this.config.stateDir, constants.W_OK);
      return indicator.up();
    } catch (error) {
      return indicator.down({
        reason: error instanceof Error && 'code' in error ? String(error.code) : 'unavailable',
      });
    }
  }
}
