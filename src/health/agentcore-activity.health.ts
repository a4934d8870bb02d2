import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ActivityTracker } from '../common/activity-tracker';

/**
 * AgentCore's busy state (`GET /ping`, docs/behaviour/agentcore.md#ping): up, `HealthyBusy` while a run or an
 * upstream cancel is in flight (which keeps the session alive), `Healthy` otherwise; `time_of_last_update`
 * is the last status change, never "now".
 */
@Injectable()
export class AgentCoreActivityHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    private readonly activity: ActivityTracker,
  ) {}

  isHealthy(key = 'agentCore') {
    const { status, time_of_last_update } = this.activity.ping();
    return this.health.check(key).up({ ping: status, time_of_last_update });
  }
}
