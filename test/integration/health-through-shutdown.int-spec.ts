import { randomUUID } from 'node:crypto';
import { CLOCK, type Clock } from '../../src/common/clock';
import { runInput } from '../support/run-input';
import { eventually, openRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';

/**
 * `/health` and `/ping` through app.close() (docs/behaviour/http.md#routes, docs/behaviour/agentcore.md#ping):
 * during the drain, and after Terminus's own shutdown hook has turned every HealthCheckService check into a 503
 * `shutting_down`, while the server still listens (a host's provider shutting down after it holds that open).
 */
describe('/health and /ping through shutdown', () => {
  let enterGate!: () => void;
  const gateEntered = new Promise<void>((resolve) => (enterGate = resolve));
  let openGate!: () => void;
  const gateOpen = new Promise<void>((resolve) => (openGate = resolve));
  // CommonModule's clock: Nest runs its module's hooks after TerminusModule's (checked below, not assumed).
  const gatedClock: Clock & { beforeApplicationShutdown(): Promise<void> } = {
    now: () => Date.now(),
    uuid: () => randomUUID(),
    beforeApplicationShutdown: () => {
      enterGate();
      return gateOpen;
    },
  };
  const gateway = useGateway({
    upstream: true,
    env: { IAC_CODE_AGUI_DRAIN_SECONDS: '1' },
    configure: (builder) => builder.overrideProvider(CLOCK).useValue(gatedClock),
  });
  const LIVENESS =
    '{"status":"ok","protocol":"ag-ui","protocolPackageVersion":"1.0.0","executionKernel":"a2a-1.0",' +
    '"serverVersion":"0.1.0","upstream":"url"}';
  const get = async (route: string) => {
    const response = await fetch(`${gateway.url}${route}`);
    return { status: response.status, body: await response.text() };
  };

  it('answers the same bytes busy, draining, and idle after Terminus has shut down, until the server closes', async () => {
    // A failed expectation must not leave close() waiting at the gate.
    try {
      const slow = openRun(gateway.url, runInput({ threadId: 'health-drain', text: 'slow' }));
      await slow.waitForEvent((event) => event.type === 'TEXT_MESSAGE_CONTENT');
      expect(await get('health')).toEqual({ status: 200, body: LIVENESS });
      const busy = await get('ping');
      expect(busy).toEqual({
        status: 200,
        body: expect.stringMatching(/^\{"status":"HealthyBusy","time_of_last_update":\d+\}$/),
      });

      const closing = gateway.close();
      await eventually(
        async () => (await get('health/ready')).status,
        (status) => status === 503,
      );
      expect(await get('health')).toEqual({ status: 200, body: LIVENESS });
      expect(await get('ping')).toEqual(busy);

      await gateEntered;
      // Terminus's hook has run: readiness answers its `shutting_down`.
      expect(JSON.parse((await get('health/ready')).body)).toMatchObject({ status: 'shutting_down' });
      expect(await get('health')).toEqual({ status: 200, body: LIVENESS });
      const idle = await eventually(
        () => get('ping'),
        (ping) => !ping.body.includes('HealthyBusy'),
        20_000,
      );
      expect(idle).toEqual({
        status: 200,
        body: expect.stringMatching(/^\{"status":"Healthy","time_of_last_update":\d+\}$/),
      });

      openGate();
      await closing;
      expect((await slow.finished).events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
    } finally {
      openGate();
    }
  });
});
