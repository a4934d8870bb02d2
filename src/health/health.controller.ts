import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { A2aHealthIndicator } from '../a2a/a2a.health';
import { A2A_UPSTREAM, type UpstreamDescriptor } from '../a2a/upstream';
import { ActivityTracker, type PingStatus } from '../common/activity-tracker';
import { SERVICE_IDENTITY, type ServiceIdentity } from '../common/service-identity';
import { ThreadStoreHealthIndicator } from '../threads/thread-store.health';
import { LifecycleHealthIndicator } from './lifecycle.health';

/**
 * Open routes (no guard): liveness with the iac-code fields, readiness, and AgentCore's ping. No error
 * filter: readiness answers Terminus's own 503 body, which probes and operators read.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly a2a: A2aHealthIndicator,
    private readonly threadStore: ThreadStoreHealthIndicator,
    private readonly lifecycle: LifecycleHealthIndicator,
    @Inject(A2A_UPSTREAM) private readonly upstream: UpstreamDescriptor,
    @Inject(SERVICE_IDENTITY) private readonly identity: ServiceIdentity,
    private readonly activity: ActivityTracker,
  ) {}

  /** docs/behaviour/http.md#routes, plus which upstream is in use (its kind only: the URL may carry a private port). */
  @Get('health')
  liveness() {
    return {
      status: 'ok',
      protocol: 'ag-ui',
      protocolPackageVersion: this.identity.protocolPackageVersion,
      executionKernel: 'a2a-1.0',
      serverVersion: this.identity.serverVersion,
      upstream: this.upstream.kind,
    };
  }

  @Get('health/ready')
  @HealthCheck()
  readiness() {
    return this.health.check([
      () => this.lifecycle.isHealthy('lifecycle'),
      () => this.a2a.isHealthy('a2a'),
      () => this.threadStore.isHealthy('threadStore'),
    ]);
  }

  /**
   * AgentCore's health route (docs/behaviour/agentcore.md): HealthyBusy while a run or an upstream
   * cancel is in flight keeps the session alive; the timestamp is the last status change, never "now".
   */
  @Get('ping')
  ping(): PingStatus {
    return this.activity.ping();
  }
}
