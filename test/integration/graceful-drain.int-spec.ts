import { runInput } from '../support/run-input';
import { eventually, openRun, postRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';

/** Graceful shutdown in-process: app.close() runs the same lifecycle hooks SIGTERM does. */
describe('graceful drain on shutdown', () => {
  const gateway = useGateway({ upstream: true, env: { IAC_CODE_AGUI_DRAIN_SECONDS: '1' } });

  it('refuses new runs with 503 SERVICE_DRAINING, turns readiness 503, and cancels runs left after the drain time', async () => {
    const slow = openRun(gateway.url, runInput({ threadId: 'drain-slow', text: 'slow' }));
    // Wait until the slow run streams its text, then start shutting down.
    await slow.waitForEvent((event) => event.type === 'TEXT_MESSAGE_CONTENT');
    const sent = (await gateway.upstream.requests()).filter(
      (entry) => entry.rpcMethod === 'SendStreamingMessage',
    );
    expect(sent).toHaveLength(1);
    const closing = gateway.close();
    // Shutdown has begun once readiness answers 503 (checked again below, with the refused run).
    await eventually(
      async () => (await fetch(`${gateway.url}health/ready`)).status,
      (status) => status === 503,
    );

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

    const run = await slow.finished;
    expect(run.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
    expect(run.events.map((e) => e.type)).toContain('TEXT_MESSAGE_END');
    await closing;
    const cancels = (await gateway.upstream.requests()).filter((entry) => entry.rpcMethod === 'CancelTask');
    expect(cancels).toHaveLength(1);
  });
});
