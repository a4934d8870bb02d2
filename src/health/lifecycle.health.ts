import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ServiceLifecycle } from '../common/service-lifecycle';

/** Not ready while draining, so a load balancer stops sending new runs before the process exits. */
@Injectable()
export class LifecycleHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    private readonly lifecycle: ServiceLifecycle,
  ) {}

  isHealthy(key = 'lifecycle') {
    const indicator = this.health.check(key);
    return this.lifecycle.isDraining ? indicator.down({ reason: 'draining' }) : indicator.up();
  }
}
