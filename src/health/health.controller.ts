import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  type HealthCheckResult,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import { A2aHealthIndicator } from '../a2a/a2a.health';
import type { PingStatus } from '../common/activity-tracker';
import { ThreadStoreHealthIndicator } from '../threads/thread-store.health';
import { AgentCoreActivityHealthIndicator } from './agentcore-activity.health';
import { LifecycleHealthIndicator } from './lifecycle.health';
import { LivenessHealthIndicator } from './liveness.health';

/** The body `GET /health` answers (docs/behaviour/http.md#routes), the original's fields first. */
export interface LivenessBody {
  readonly status: 'ok';
  readonly protocol: string;
  readonly protocolPackageVersion: string;
  readonly executionKernel: string;
  readonly serverVersion: string;
  readonly upstream: string;
}

/**
 * Open routes (no guard), each answered through Terminus's HealthCheckService: liveness with the iac-code
 * fields, readiness, and AgentCore's ping. `/health` and `/ping` keep their faces' bodies (the original's,
 * and AgentCore's), read from their indicators' details; readiness answers Terminus's own body (and its 503),
 * which probes and operators read. No error filter.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly liveness: LivenessHealthIndicator,
    private readonly activity: AgentCoreActivityHealthIndicator,
    private readonly a2a: A2aHealthIndicator,
    private readonly threadStore: ThreadStoreHealthIndicator,
    private readonly lifecycle: LifecycleHealthIndicator,
  ) {}

  @Get('health')
  async live(): Promise<LivenessBody> {
    const details = await this.detailsOf('liveness', () => this.liveness.isHealthy('liveness'));
    const { status: _up, ...fields } = details as Record<string, string>;
    return { status: 'ok', ...fields } as unknown as LivenessBody;
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

  /** AgentCore's health route (docs/behaviour/agentcore.md#ping). */
  @Get('ping')
  async ping(): Promise<PingStatus> {
    const details = await this.detailsOf('agentCore', () => this.activity.isHealthy('agentCore'));
    const { ping, time_of_last_update } = details as {
      ping: PingStatus['status'];
      time_of_last_update: number;
    };
    return { status: ping, time_of_last_update };
  }

  /**
   * One indicator's details, as the HealthCheckService reported them. Once Terminus's own shutdown hook has
   * run, it answers every check 503 `shutting_down`, with the details still in its body: that verdict is
   * readiness's (`/health/ready`); `/health` always answers 200 (docs/behaviour/http.md#routes) and `/ping`
   * stays AgentCore's busy state through the drain (docs/behaviour/agentcore.md#ping).
   */
  private async detailsOf(
    key: string,
    indicator: () => HealthIndicatorResult | Promise<HealthIndicatorResult>,
  ): Promise<Record<string, unknown>> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check([indicator]);
    } catch (error) {
      const body = error instanceof ServiceUnavailableException ? error.getResponse() : undefined;
      if ((body as Partial<HealthCheckResult> | undefined)?.status !== 'shutting_down') throw error;
      result = body as HealthCheckResult;
    }
    return result.details[key] as Record<string, unknown>;
  }
}
