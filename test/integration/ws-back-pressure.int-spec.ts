import * as os from 'node:os';
import { FLOOD_DELTA_COUNT } from '../../src/a2a/embedded/failure-scripts';
import { RunMetrics } from '../../src/metrics/run-metrics';
import type { RunSink } from '../../src/runs/run-flow-control';
import { RunService } from '../../src/runs/run.service';
import { runInput } from '../support/run-input';
import { startGateway, type RunningGateway } from '../support/start-gateway';
import { startKernelUpstream, type KernelUpstream } from '../support/start-kernel-upstream';
import { WsRunClient } from '../support/ws-client';

/**
 * A /ws client that stops reading holds its run back exactly like a slow SSE client
 * (docs/behaviour/sse.md#back-pressure): the run stops pulling events at the socket's high-water mark, so
 * the upstream is not read either; once the client reads again, every event arrives.
 */
describe('back-pressure from a slow /ws client', () => {
  let upstream: KernelUpstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    upstream = await startKernelUpstream();
    gateway = await startGateway({
      IAC_CODE_AGUI_A2A_URL: upstream.url,
      IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const contentEvents = async () => {
    const text = await gateway.app.get(RunMetrics).exposition();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('agui_gateway_events_total{type="TEXT_MESSAGE_CONTENT"}'));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  /** Resolves when the run first waits for its socket to drain, with the events handed out by then. */
  const firstWait = () => {
    const runs = gateway.app.get(RunService);
    const stream = runs.stream.bind(runs);
    return new Promise<number>((resolve) => {
      runs.stream = (run, sink) =>
        stream(run, {
          write: (event) => sink.write(event),
          whenWritable: () => {
            const writable = sink.whenWritable();
            if (writable) void contentEvents().then(resolve);
            return writable;
          },
          end: () => sink.end(),
          abort: (error) => sink.abort(error),
        } satisfies RunSink);
    });
  };

  it('waits for drain while the client does not read, and delivers every event once it does', async () => {
    const waited = firstWait();
    const client = await WsRunClient.open(gateway.url);
    try {
      client.socket.pause();
      client.send(runInput({ threadId: 'ws-flood-1', text: 'flood' }));
      const handedOut = await waited;
      expect(handedOut).toBeLessThan(FLOOD_DELTA_COUNT);
      client.socket.resume();
      const events = await client.nextRun(60_000);
      expect(events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')).toHaveLength(FLOOD_DELTA_COUNT);
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    } finally {
      client.socket.terminate();
    }
  }, 90_000);
});
