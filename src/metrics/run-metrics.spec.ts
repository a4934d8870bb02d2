import { RunMetrics } from './run-metrics';

/** The value of one sample line of the Prometheus text, e.g. `agui_gateway_runs_total{outcome="success"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('RunMetrics', () => {
  let metrics: RunMetrics;
  beforeEach(() => {
    metrics = new RunMetrics();
  });
  afterEach(() => metrics.onModuleDestroy());

  it('counts runs by face and by outcome, and the runs still active', async () => {
    metrics.runStarted('iac-code');
    metrics.runStarted('iac-code');
    metrics.runStarted('agentcore');
    metrics.runEnded('success');
    metrics.runEnded('A2A_EXECUTION_FAILED');
    const text = await metrics.exposition();
    expect(sample(text, 'agui_gateway_runs_started_total{face="iac-code"}')).toBe(2);
    expect(sample(text, 'agui_gateway_runs_started_total{face="agentcore"}')).toBe(1);
    expect(sample(text, 'agui_gateway_runs_total{outcome="success"}')).toBe(1);
    expect(sample(text, 'agui_gateway_runs_total{outcome="A2A_EXECUTION_FAILED"}')).toBe(1);
    expect(sample(text, 'agui_gateway_runs_active')).toBe(1);
  });

  it.each([
    {
      name: 'events by type',
      act: (m: RunMetrics) =>
        ['RUN_STARTED', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT'].forEach((t) => m.eventEmitted(t)),
      series: 'agui_gateway_events_total{type="TEXT_MESSAGE_CONTENT"}',
      value: 2,
    },
    {
      name: 'heartbeat comments',
      act: (m: RunMetrics) => [1, 2, 3].forEach(() => m.heartbeatSent()),
      series: 'agui_gateway_heartbeats_total',
      value: 3,
    },
    {
      name: 'A2A call latency by method and result',
      act: (m: RunMetrics) => {
        m.observeA2aCall('SendStreamingMessage', 0.2, true);
        m.observeA2aCall('SendStreamingMessage', 0.3, true);
        m.observeA2aCall('CancelTask', 10, false);
      },
      series: 'agui_gateway_a2a_call_duration_seconds_count{method="SendStreamingMessage",result="ok"}',
      value: 2,
    },
    {
      name: 'failed A2A calls apart',
      act: (m: RunMetrics) => m.observeA2aCall('CancelTask', 10, false),
      series: 'agui_gateway_a2a_call_duration_seconds_sum{method="CancelTask",result="error"}',
      value: 10,
    },
    {
      name: 'time to first event in buckets',
      act: (m: RunMetrics) => m.observeTimeToFirstEvent(0.3),
      series: 'agui_gateway_time_to_first_event_seconds_bucket{le="0.5"}',
      value: 1,
    },
    {
      name: 'a slow first event outside the small buckets',
      act: (m: RunMetrics) => m.observeTimeToFirstEvent(0.3),
      series: 'agui_gateway_time_to_first_event_seconds_bucket{le="0.25"}',
      value: 0,
    },
    {
      name: 'admission latency',
      act: (m: RunMetrics) => m.observeAdmission(0.002),
      series: 'agui_gateway_admission_duration_seconds_count',
      value: 1,
    },
    {
      name: 'state write latency',
      act: (m: RunMetrics) => m.observeStateWrite(0.004),
      series: 'agui_gateway_state_write_duration_seconds_sum',
      value: 0.004,
    },
    {
      name: 'pending interrupts as a level',
      act: (m: RunMetrics) => {
        m.setPendingInterrupts(3);
        m.setPendingInterrupts(2);
      },
      series: 'agui_gateway_interrupts_pending',
      value: 2,
    },
    {
      name: 'expired interrupts',
      act: (m: RunMetrics) => m.interruptExpired(),
      series: 'agui_gateway_interrupts_expired_total',
      value: 1,
    },
  ])('exposes $name', async ({ act, series, value }) => {
    act(metrics);
    expect(sample(await metrics.exposition(), series)).toBe(value);
  });

  it('documents every series and adds the process metrics', async () => {
    const text = await metrics.exposition();
    const own = [...text.matchAll(/^# TYPE (agui_gateway_\w+) (\w+)$/gm)].map(
      ([, name, type]) => `${name} ${type}`,
    );
    expect(own.sort()).toEqual([
      'agui_gateway_a2a_call_duration_seconds histogram',
      'agui_gateway_admission_duration_seconds histogram',
      'agui_gateway_events_total counter',
      'agui_gateway_heartbeats_total counter',
      'agui_gateway_interrupts_expired_total counter',
      'agui_gateway_interrupts_pending gauge',
      'agui_gateway_runs_active gauge',
      'agui_gateway_runs_started_total counter',
      'agui_gateway_runs_total counter',
      'agui_gateway_state_write_duration_seconds histogram',
      'agui_gateway_time_to_first_event_seconds histogram',
    ]);
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
    expect(metrics.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('keeps each instance apart (a private registry, not the global one)', async () => {
    const other = new RunMetrics();
    try {
      other.runStarted('ws');
      expect(sample(await other.exposition(), 'agui_gateway_runs_started_total{face="ws"}')).toBe(1);
      expect(
        sample(await metrics.exposition(), 'agui_gateway_runs_started_total{face="ws"}'),
      ).toBeUndefined();
    } finally {
      other.onModuleDestroy();
    }
  });
});
