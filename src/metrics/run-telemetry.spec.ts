import type { Clock } from '../common/clock';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { RunTracer, type TraceSpan } from '../tracing/run-tracer';
import { A2aCallObserver } from './a2a-call-observer';
import { runOutcomeCode } from './run-outcome-code';
import { RunMetrics } from './run-metrics';
import { RunTelemetry } from './run-telemetry';

class FakeClock implements Clock {
  ms = 1_000_000;
  now(): number {
    return this.ms;
  }
  uuid(): string {
    return 'uuid';
  }
}

/** Records every span it starts and how each ended. */
class RecordingTracer extends RunTracer {
  readonly spans: { name: string; outcomes: string[]; headers: Record<string, string> }[] = [];
  private start(name: string): TraceSpan {
    const record = { name, outcomes: [] as string[], headers: { traceparent: `00-${name}` } };
    this.spans.push(record);
    return {
      setAttributes: () => undefined,
      activate: (fn) => fn(),
      traceHeaders: () => record.headers,
      end: (outcome) => void record.outcomes.push(outcome),
    };
  }
  startRunSpan(attributes: { runId: string }): TraceSpan {
    return this.start(`run ${attributes.runId}`);
  }
  startA2aSpan(method: string): TraceSpan {
    return this.start(`a2a ${method}`);
  }
  traceHeaders(): Record<string, string> {
    return {};
  }
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('runOutcomeCode', () => {
  it.each([
    { event: { type: 'RUN_FINISHED', outcome: { type: 'success' } }, expected: 'success' },
    { event: { type: 'RUN_FINISHED' }, expected: 'success' },
    { event: { type: 'RUN_FINISHED', outcome: { type: 'interrupt' } }, expected: 'interrupt' },
    { event: { type: 'RUN_ERROR', code: 'A2A_UNAVAILABLE' }, expected: 'A2A_UNAVAILABLE' },
    { event: { type: 'TEXT_MESSAGE_CONTENT' }, expected: undefined },
  ])('$event.type $event.outcome $event.code → $expected', ({ event, expected }) => {
    expect(runOutcomeCode(event)).toBe(expected);
  });
});

describe('RunTelemetry', () => {
  let metrics: RunMetrics;
  let tracer: RecordingTracer;
  let clock: FakeClock;
  let telemetry: RunTelemetry;
  beforeEach(() => {
    metrics = new RunMetrics();
    tracer = new RecordingTracer();
    clock = new FakeClock();
    telemetry = new RunTelemetry(metrics, tracer, clock);
  });
  afterEach(() => metrics.onModuleDestroy());

  it('counts a run from start to its terminal event and times the first mapped event', async () => {
    const run = telemetry.startRun({ threadId: 't', runId: 'r1', face: 'agentcore' }, clock.ms);
    expect(sample(await metrics.exposition(), 'agui_gateway_runs_active')).toBe(1);
    clock.ms += 100;
    run.event({ type: 'RUN_STARTED' });
    clock.ms += 400;
    run.event({ type: 'TEXT_MESSAGE_START' });
    clock.ms += 1000;
    run.event({ type: 'RUN_ERROR', code: 'A2A_EXECUTION_FAILED' });
    run.end();
    run.end();
    const text = await metrics.exposition();
    expect(sample(text, 'agui_gateway_runs_started_total{face="agentcore"}')).toBe(1);
    expect(sample(text, 'agui_gateway_runs_total{outcome="A2A_EXECUTION_FAILED"}')).toBe(1);
    expect(sample(text, 'agui_gateway_runs_active')).toBe(0);
    expect(sample(text, 'agui_gateway_events_total{type="RUN_STARTED"}')).toBe(1);
    expect(sample(text, 'agui_gateway_time_to_first_event_seconds_sum')).toBe(0.5);
    expect(sample(text, 'agui_gateway_time_to_first_event_seconds_count')).toBe(1);
    expect(tracer.spans).toEqual([
      { name: 'run r1', outcomes: ['A2A_EXECUTION_FAILED'], headers: expect.any(Object) },
    ]);
  });

  it('ends a run the client left as disconnected', async () => {
    const run = telemetry.startRun({ threadId: 't', runId: 'r2', face: 'iac-code' }, clock.ms);
    run.event({ type: 'RUN_STARTED' });
    run.end();
    expect(sample(await metrics.exposition(), 'agui_gateway_runs_total{outcome="disconnected"}')).toBe(1);
    expect(tracer.spans[0].outcomes).toEqual(['disconnected']);
  });
});

describe('A2aCallObserver', () => {
  let metrics: RunMetrics;
  let tracer: RecordingTracer;
  let clock: FakeClock;
  let observer: A2aCallObserver;
  beforeEach(() => {
    metrics = new RunMetrics();
    tracer = new RecordingTracer();
    clock = new FakeClock();
    observer = new A2aCallObserver(metrics, tracer, clock);
  });
  afterEach(() => metrics.onModuleDestroy());

  it('times a unary call, ends its span and hands it the trace headers', async () => {
    const sent: Record<string, string>[] = [];
    const result = await observer.call('CancelTask', async (headers) => {
      sent.push(headers);
      clock.ms += 250;
      return 'done';
    });
    expect(result).toBe('done');
    expect(sent).toEqual([{ traceparent: '00-a2a CancelTask' }]);
    const text = await metrics.exposition();
    expect(sample(text, 'agui_gateway_a2a_call_duration_seconds_sum{method="CancelTask",result="ok"}')).toBe(
      0.25,
    );
    expect(tracer.spans[0].outcomes).toEqual(['ok']);
  });

  it('records a failed unary call with the error code and rethrows', async () => {
    const failing = observer.call('GetTask', () =>
      Promise.reject(new AguiError(ErrorCode.A2A_UNAVAILABLE, 'a2aUnavailable')),
    );
    await expect(failing).rejects.toBeInstanceOf(AguiError);
    const text = await metrics.exposition();
    expect(
      sample(text, 'agui_gateway_a2a_call_duration_seconds_count{method="GetTask",result="error"}'),
    ).toBe(1);
    expect(tracer.spans[0].outcomes).toEqual(['A2A_UNAVAILABLE']);
  });

  it('times a stream to its first frame and keeps the span open until the stream ends', async () => {
    async function* frames(): AsyncIterable<number> {
      clock.ms += 300;
      yield 1;
      clock.ms += 5000;
      yield 2;
    }
    const seen: number[] = [];
    for await (const frame of observer.stream('SendStreamingMessage', () => frames())) {
      seen.push(frame);
      expect(tracer.spans[0].outcomes).toEqual([]);
    }
    expect(seen).toEqual([1, 2]);
    const text = await metrics.exposition();
    expect(
      sample(text, 'agui_gateway_a2a_call_duration_seconds_sum{method="SendStreamingMessage",result="ok"}'),
    ).toBe(0.3);
    expect(tracer.spans[0].outcomes).toEqual(['ok']);
  });

  it('counts a stream that dies before its first frame as a failed call', async () => {
    // An iterable whose first read fails, as the SDK's stream does when the connection drops.
    const frames = (): AsyncIterable<number> => ({
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          clock.ms += 50;
          throw new Error('socket hang up');
        },
      }),
    });
    const read = async () => {
      for await (const frame of observer.stream('SubscribeToTask', () => frames())) void frame;
    };
    await expect(read()).rejects.toThrow('socket hang up');
    const text = await metrics.exposition();
    expect(
      sample(text, 'agui_gateway_a2a_call_duration_seconds_count{method="SubscribeToTask",result="error"}'),
    ).toBe(1);
    expect(tracer.spans[0].outcomes).toEqual(['error']);
  });
});
