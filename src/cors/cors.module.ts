import {
  Inject,
  Module,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type Type,
} from '@nestjs/common';
import cors from 'cors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { controllerRoutes } from '../common/controller-routes';
import { corsOptionsFor } from './cors-options';

const CORS_CONTROLLERS = Symbol('CORS_CONTROLLERS');

/**
 * Opt-in CORS (IAC_CODE_AGUI_CORS_ORIGINS) on the gateway's own routes only, never the app-wide CORS switch: a
 * host application importing the gateway keeps its routes and their CORS policy as they were. Without
 * the setting nothing is registered, as in the original. Preflights are answered here (204), before the
 * auth guard, which a browser's preflight could never pass.
 */
@Module({})
export class CorsModule implements NestModule {
  /** `controllers`: the gateway's own (the playground is served same-origin and needs no CORS). */
  static forRoutes(controllers: readonly Type[]): DynamicModule {
    return { module: CorsModule, providers: [{ provide: CORS_CONTROLLERS, useValue: controllers }] };
  }

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CORS_CONTROLLERS) private readonly controllers: readonly Type[],
  ) {}

  configure(consumer: MiddlewareConsumer): void {
    if (this.config.corsOrigins.length === 0) return;
    consumer
      .apply(cors(corsOptionsFor(this.config.corsOrigins)))
      .forRoutes(...this.controllers.flatMap(controllerRoutes));
  }
}
