import { Test } from '@nestjs/testing';
import { HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { A2aHealthIndicator } from '../a2a/a2a.health';
import { A2A_UPSTREAM } from '../a2a/upstream';
import { ActivityTracker } from '../common/activity-tracker';
import { CLOCK } from '../common/clock';
import { SERVICE_IDENTITY } from '../common/service-identity';
import { ServiceLifecycle } from '../common/service-lifecycle';
import { ThreadStoreHealthIndicator } from '../threads/thread-store.health';
import { FakeClock } from '../../test/support/fakes/fake-clock';
import { AgentCoreActivityHealthIndicator } from './agentcore-activity.health';
import { HealthController } from './health.controller';
import { LifecycleHealthIndicator } from './lifecycle.health';
import { LivenessHealthIndicator } from './liveness.health';

/**
 * `/health` and `/ping` through Terminus (docs/behaviour/http.md#routes, docs/behaviour/agentcore.md#ping):
 * the bytes are the ones the plain handlers answered, idle, busy and draining.
 */
describe('HealthController', () => {
  async function start() {
    const clock = new FakeClock(1_764_504_000_500);
    const moduleRef = await Test.createTestingModule({
      imports: [TerminusModule],
      controllers: [HealthController],
      providers: [
        LivenessHealthIndicator,
        AgentCoreActivityHealthIndicator,
        LifecycleHealthIndicator,
        ServiceLifecycle,
        ActivityTracker,
        { provide: CLOCK, useValue: clock },
        { provide: A2A_UPSTREAM, useValue: { kind: 'remote', url: 'http://127.0.0.1:1' } },
        { provide: SERVICE_IDENTITY, useValue: { protocolPackageVersion: '1.0.0', serverVersion: '0.1.0' } },
        { provide: A2aHealthIndicator, useValue: {} },
        { provide: ThreadStoreHealthIndicator, useValue: {} },
      ],
    }).compile();
    const checked: unknown[] = [];
    const health = moduleRef.get(HealthCheckService);
    const check = health.check.bind(health);
    jest.spyOn(health, 'check').mockImplementation((indicators) => {
      checked.push(indicators.length);
      return check(indicators);
    });
    return {
      moduleRef,
      controller: moduleRef.get(HealthController),
      activity: moduleRef.get(ActivityTracker),
      lifecycle: moduleRef.get(ServiceLifecycle),
      clock,
      checked,
    };
  }

  const LIVENESS =
    '{"status":"ok","protocol":"ag-ui","protocolPackageVersion":"1.0.0","executionKernel":"a2a-1.0",' +
    '"serverVersion":"0.1.0","upstream":"remote"}';

  it('answers /health with the original fields, byte for byte, idle, busy and draining, through the HealthCheckService', async () => {
    const { controller, activity, lifecycle, checked } = await start();
    expect(JSON.stringify(await controller.live())).toBe(LIVENESS);
    const end = activity.begin();
    expect(JSON.stringify(await controller.live())).toBe(LIVENESS);
    lifecycle.startDraining();
    expect(JSON.stringify(await controller.live())).toBe(LIVENESS);
    end();
    expect(checked).toEqual([1, 1, 1]);
  });

  it("answers /ping with AgentCore's body: Healthy, HealthyBusy while busy, and the time of the last change", async () => {
    const { controller, activity, lifecycle, clock, checked } = await start();
    expect(JSON.stringify(await controller.ping())).toBe(
      '{"status":"Healthy","time_of_last_update":1764504000}',
    );
    clock.advance(2_000);
    const end = activity.begin();
    expect(JSON.stringify(await controller.ping())).toBe(
      '{"status":"HealthyBusy","time_of_last_update":1764504002}',
    );
    lifecycle.startDraining();
    clock.advance(3_000);
    expect(JSON.stringify(await controller.ping())).toBe(
      '{"status":"HealthyBusy","time_of_last_update":1764504002}',
    );
    end();
    expect(JSON.stringify(await controller.ping())).toBe(
      '{"status":"Healthy","time_of_last_update":1764504005}',
    );
    expect(checked).toEqual([1, 1, 1, 1]);
  });

  it("answers /health and /ping as before once Terminus's own shutdown hook has run (its verdict is readiness's, not theirs)", async () => {
    const { moduleRef, controller, activity, lifecycle, clock } = await start();
    const end = activity.begin();
    lifecycle.startDraining();
    // The hooks app.close() runs: Terminus's HealthCheckExecutor marks every later check `shutting_down` (503).
    await moduleRef.close();
    await expect(moduleRef.get(HealthCheckService).check([])).rejects.toMatchObject({
      response: { status: 'shutting_down' },
    });
    expect(JSON.stringify(await controller.live())).toBe(LIVENESS);
    expect(JSON.stringify(await controller.ping())).toBe(
      '{"status":"HealthyBusy","time_of_last_update":1764504000}',
    );
    clock.advance(1_000);
    end();
    expect(JSON.stringify(await controller.ping())).toBe(
      '{"status":"Healthy","time_of_last_update":1764504001}',
    );
  });
});
