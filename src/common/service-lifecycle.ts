import { Injectable } from '@nestjs/common';

/**
 * Whether the service is shutting down. Set once, at the start of the graceful drain; readiness and
 * admission read it (new runs get 503 SERVICE_DRAINING, /health/ready turns 503).
 */
@Injectable()
export class ServiceLifecycle {
  private isDrainingNow = false;

  get isDraining(): boolean {
    return this.isDrainingNow;
  }

  startDraining(): void {
    this.isDrainingNow = true;
  }
}
