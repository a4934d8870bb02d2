import * as http from 'node:http';
import { FLOOD_DELTA_COUNT } from '../../src/demo-kernel/faults/failure-scripts';
import { RunMetrics } from '../../src/metrics/run-metrics';
import type { RunSink } from '../../src/runs/run-flow-control';
import { RunService } from '../../src/runs/run.service';
import { runInput } from '../support/run-input';
import { eventually } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';
import { WsRunClient } from '../support/ws-client';

/**
 * A client that stops reading must not make the gateway buffer the whole run: the run stops
 * pulling events, so the upstream stops being read too; once the client reads again, everything arrives.
 */
describe('back-pressure from a slow SSE client', () => {
  const gateway = useGateway({ upstream: true });

  const contentEvents = async () => {
    const text = await gateway.app.get(RunMetrics).exposition();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('agui_gateway_events_total{type="TEXT_MESSAGE_CONTENT"}'));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  it('stops pulling events while the client does not read, and delivers them all once it does', async () => {
    const { port } = new URL(gateway.url);
    const body = JSON.stringify(runInput({ threadId: 'flood-1', text: 'flood' }));
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/',
          headers: { 'content-type': 'application/json' },
        },
        resolve,
      );
      request.on('error', reject);
      request.end(body);
    });
    expect(response.statusCode).toBe(200);
    response.pause();
    // The run stops pulling once the socket's buffers are full: wait for the count to stop moving (the same
    // over several reads in a row), not for a fixed time. Without back-pressure it only stops at the end.
    let previous = -1;
    let unchangedReads = 0;
    const whilePaused = await eventually(
      contentEvents,
      (count) => {
        unchangedReads = count > 0 && count === previous ? unchangedReads + 1 : 0;
        previous = count;
        return unchangedReads >= 5;
      },
      30_000,
    );
    expect(whilePaused).toBeGreaterThan(0);
    expect(whilePaused).toBeLessThan(FLOOD_DELTA_COUNT * 0.75);

    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    const ended = new Promise((resolve) => response.on('end', resolve));
    // An explicit pause() is not undone by a 'data' listener: read again explicitly.
    response.resume();
    await ended;
    expect(await contentEvents()).toBe(FLOOD_DELTA_COUNT);
    expect(text.split('\n\n').filter((frame) => frame.includes('"TEXT_MESSAGE_CONTENT"'))).toHaveLength(
      FLOOD_DELTA_COUNT,
    );
    expect(text).toContain('"type":"RUN_FINISHED"');
  }, 60_000);

  /**
   * A /ws client gets the same (docs/behaviour/sse.md#back-pressure). Seen from inside: the run's sink is
   * wrapped to tell when the run waits for its socket to drain, and whether anything is written meanwhile.
   */
  it('holds a /ws run back the same way: it waits for drain while the client does not read, then delivers every event', async () => {
    const runs = gateway.app.get(RunService);
    const original = runs.stream;
    const stream = original.bind(runs);
    // Nothing may be written while the run waits for drain: that is what holding the run back means.
    let isWaiting = false;
    let writesWhileWaiting = 0;
    const waited = new Promise<void>((resolve) => {
      runs.stream = (run, sink) =>
        stream(run, {
          write: (event) => {
            if (isWaiting) writesWhileWaiting++;
            sink.write(event);
          },
          whenWritable: () => {
            const writable = sink.whenWritable();
            if (writable) {
              isWaiting = true;
              void writable.then(() => (isWaiting = false));
              resolve();
            }
            return writable;
          },
          end: () => sink.end(),
          abort: (error) => sink.abort(error),
        } satisfies RunSink);
    });
    const client = await WsRunClient.open(gateway.url);
    try {
      client.socket.pause();
      client.send(runInput({ threadId: 'ws-flood-1', text: 'flood' }));
      await waited;
      client.socket.resume();
      const events = await client.nextRun(60_000);
      expect(writesWhileWaiting).toBe(0);
      expect(events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toHaveLength(FLOOD_DELTA_COUNT);
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    } finally {
      runs.stream = original;
      client.socket.terminate();
    }
  }, 90_000);
});
