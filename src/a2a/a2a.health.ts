import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { A2A_GATEWAY, type A2aGateway } from './a2a-gateway';
import { A2A_UPSTREAM, type UpstreamDescriptor } from './upstream';

/** /health/ready: the upstream is up when it answers its agent card (with the bearer). */
@Injectable()
export class A2aHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(A2A_GATEWAY) private readonly gateway: A2aGateway,
    @Inject(A2A_UPSTREAM) private readonly upstream: UpstreamDescriptor,
  ) {}

  async isHealthy(key = 'a2a') {
    const indicator = this.health.check(key);
    try {
      await this.gateway.checkReady();
      return indicator.up({ upstream: this.upstream.kind });
    } catch {
      // No error text: it can carry the upstream URL, and /health/ready is unauthenticated.
      return indicator.down({ upstream: this.upstream.kind, reason: 'unreachable' });
    }
  }
}
