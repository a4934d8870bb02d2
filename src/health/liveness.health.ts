import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { A2A_UPSTREAM, type UpstreamDescriptor } from '../a2a/upstream';
import { SERVICE_IDENTITY, type ServiceIdentity } from '../common/service-identity';

/**
 * Liveness (`GET /health`, docs/behaviour/http.md#routes): the process answers, with the iac-code fields and
 * which upstream is in use (its kind only: the URL may carry a private port). Always up: a live process
 * that cannot take runs says so on `/health/ready`.
 */
@Injectable()
export class LivenessHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(A2A_UPSTREAM) private readonly upstream: UpstreamDescriptor,
    @Inject(SERVICE_IDENTITY) private readonly identity: ServiceIdentity,
  ) {}

  isHealthy(key = 'liveness') {
    return this.health.check(key).up({
      protocol: 'ag-ui',
      protocolPackageVersion: this.identity.protocolPackageVersion,
      executionKernel: 'a2a-1.0',
      serverVersion: this.identity.serverVersion,
      upstream: this.upstream.kind,
    });
  }
}
