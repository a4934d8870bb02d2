import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { RequestAuthGuard } from '../auth/request-auth.guard';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * `/metrics` takes the same authentication as the run routes, unless IAC_CODE_AGUI_METRICS_PUBLIC=true
 * (a scraper inside the cluster network, docs/architecture.md#decisions).
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: RequestAuthGuard,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> | Observable<boolean> {
    return this.config.metricsPublic || this.auth.canActivate(context);
  }
}
