import { Inject, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import cors from 'cors';
import { CancelController } from '../cancellation/cancel.controller';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { HealthController } from '../health/health.controller';
import { MetricsController } from '../metrics/metrics.controller';
import { RunsController } from '../runs/runs.controller';
import { controllerRoutes } from './controller-routes';
import { corsOptionsFor } from './cors-options';

/** The gateway's HTTP controllers; the playground is served same-origin and needs no CORS. */
const CORS_CONTROLLERS = [RunsController, CancelController, HealthController, MetricsController];

/**
 * Opt-in CORS (IAC_CODE_AGUI_CORS_ORIGINS) on the gateway's own routes only, never the app-wide CORS switch: a
 * host application importing the gateway keeps its routes and their CORS policy as they were. Without
 * the setting nothing is registered, as in the original. Preflights are answered here (204), before the
 * auth guard, which a browser's preflight could never pass.
 */
@Module({})
export class CorsModule implements NestModule {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  configure(consumer: MiddlewareConsumer): void {
    if (this.config.corsOrigins.length === 0) return;
    consumer
      .apply(cors(corsOptionsFor(this.config.corsOrigins)))
      .forRoutes(...CORS_CONTROLLERS.flatMap(controllerRoutes));
  }
}
