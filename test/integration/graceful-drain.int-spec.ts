import * as os from 'node:os';
import { startGateway } from '../support/start-gateway';
import { startKernelUpstream } from '../support/start-kernel-upstream';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';

/** Graceful shutdown in-process: app.close() runs the same lifecycle hooks SIGTERM does. */
describe('graceful drain on shutdown', () => {
  it('refuses new runs with 503 SERVICE_DRAINING, turns readiness 503, and cancels runs left after the drain time', async () => {
    const upstream = await startKernelUpstream();
    try {
      const gateway = await startGateway({
        IAC_CODE_AGUI_A2A_URL: upstream.url,
        IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
        IAC_CODE_AGUI_DRAIN_SECONDS: '1',
      });
      const slow = postRun(gateway.url, runInput({ threadId: 'drain-slow', text: 'slow' }));
      // Wait until the slow run is bound to its A2A task, then start shutting down.
      const taskId = await eventually(
        async () =>
          (await upstream.requests()).some((entry) => entry.rpcMethod === 'SendStreamingMessage')
            ? 'sent'
            : undefined,
        (value) => value !== undefined,
      );
      expect(taskId).toBe('sent');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const closing = gateway.close();
      await new Promise((resolve) => setTimeout(resolve, 100));

      const refused = await postRun(gateway.url, runInput({ threadId: 'drain-new' }));
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.text)).toEqual({
        error: {
          code: 'SERVICE_DRAINING',
          message: 'The AG-UI gateway is shutting down and accepts no new runs.',
        },
      });
      const ready = await fetch(`${gateway.url}health/ready`);
      expect(ready.status).toBe(503);

      const run = await slow;
      expect(run.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
      expect(run.events.map((e) => e.type)).toContain('TEXT_MESSAGE_END');
      await closing;
      const cancels = (await upstream.requests()).filter((entry) => entry.rpcMethod === 'CancelTask');
      expect(cancels).toHaveLength(1);
    } finally {
      await upstream.close();
    }
  });
});
