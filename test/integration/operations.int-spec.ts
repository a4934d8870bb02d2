import * as os from 'node:os';
import { RunMetrics } from '../../src/metrics/run-metrics';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import type { RunningGateway } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';

const TOKEN = 'ops-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    IAC_CODE_AGUI_UPSTREAM: 'demo',
    IAC_CODE_AGUI_AUTH_TOKEN: TOKEN,
    IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
    ...extra,
  };
}

/** The value of one sample line of the Prometheus text. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

type LogLine = Record<string, unknown>;
const parsed = (gateway: RunningGateway): LogLine[] =>
  gateway.logs.map((line) => JSON.parse(line) as LogLine);

describe('operations: /metrics and request logs', () => {
  const gateway = useGateway({ env: env() });
  const publicGateway = useGateway({ env: env({ IAC_CODE_AGUI_METRICS_PUBLIC: 'true' }) });

  it.each([
    { name: 'no token', headers: {}, language: 'en', message: 'A valid bearer token is required.' },
    {
      name: 'a wrong token, in the Accept-Language of the caller',
      headers: { authorization: 'Bearer nope', 'accept-language': 'ja-JP, en;q=0.5' },
      language: 'ja',
      message: '有効なベアラートークンが必要です。',
    },
  ])('refuses a scrape with $name (401 JSON envelope)', async ({ headers, message }) => {
    const response = await fetch(`${gateway.url}metrics`, { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message } });
  });

  it('serves the Prometheus text with the token, after a run and a failed run', async () => {
    const ok = await postRun(gateway.url, runInput({ threadId: 'ops-ok' }), { headers: AUTH });
    const failed = await postRun(gateway.url, runInput({ threadId: 'ops-fail', text: 'fail' }), {
      headers: AUTH,
    });
    expect(ok.events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(failed.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'A2A_EXECUTION_FAILED' });
    const response = await fetch(`${gateway.url}metrics`, { headers: AUTH });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    // The two real runs, as the run path reported them.
    expect(sample(text, 'agui_gateway_runs_total{outcome="success"}')).toBe(1);
    expect(sample(text, 'agui_gateway_runs_total{outcome="A2A_EXECUTION_FAILED"}')).toBe(1);
    expect(sample(text, 'agui_gateway_runs_started_total{face="iac-code"}')).toBe(2);
    expect(sample(text, 'agui_gateway_runs_active')).toBe(0);
    expect(sample(text, 'agui_gateway_events_total{type="RUN_STARTED"}')).toBe(2);
    expect(sample(text, 'agui_gateway_events_total{type="RUN_ERROR"}')).toBe(1);
    expect(sample(text, 'agui_gateway_time_to_first_event_seconds_count')).toBe(2);
    expect(sample(text, 'agui_gateway_admission_duration_seconds_count')).toBe(2);
    // Admission, task and session mappings, and the terminal marking of each run are state writes.
    expect(sample(text, 'agui_gateway_state_write_duration_seconds_count')).toBeGreaterThanOrEqual(6);
    expect(
      sample(text, 'agui_gateway_a2a_call_duration_seconds_count{method="SendStreamingMessage",result="ok"}'),
    ).toBe(2);
    for (const series of [
      'agui_gateway_runs_active',
      'agui_gateway_events_total{type="RUN_STARTED"}',
      'agui_gateway_heartbeats_total',
      'agui_gateway_a2a_call_duration_seconds_count{method="SendStreamingMessage",result="ok"}',
      'agui_gateway_time_to_first_event_seconds_count',
      'agui_gateway_admission_duration_seconds_count',
      'agui_gateway_state_write_duration_seconds_count',
      'agui_gateway_interrupts_pending',
      'agui_gateway_interrupts_expired_total',
      'process_cpu_user_seconds_total',
    ]) {
      expect({ series, present: sample(text, series) !== undefined }).toEqual({ series, present: true });
    }
  });

  it('keeps the metrics of two apps apart', async () => {
    gateway.app.get(RunMetrics).runStarted('only-on-the-first');
    const text = await (await fetch(`${publicGateway.url}metrics`)).text();
    expect(text).toContain('agui_gateway_runs_active');
    expect(text).not.toContain('only-on-the-first');
  });

  it('serves /metrics without a token when IAC_CODE_AGUI_METRICS_PUBLIC=true, and runs still need one', async () => {
    const scrape = await fetch(`${publicGateway.url}metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('# TYPE agui_gateway_runs_total counter');
    const run = await postRun(publicGateway.url, runInput({ threadId: 'ops-public' }));
    expect(run.status).toBe(401);
  });

  it('writes one JSON line per request when the SSE stream ends, with the AgentCore ids', async () => {
    const headers = {
      ...AUTH,
      'x-amzn-bedrock-agentcore-runtime-request-id': 'ops-request-1',
      'x-amzn-bedrock-agentcore-runtime-session-id': 'ops-session-1',
    };
    const response = await postRun(gateway.url, runInput({ threadId: 'ops-log', text: 'fail' }), { headers });
    expect(response.events.at(-1)).toMatchObject({ code: 'A2A_EXECUTION_FAILED' });
    const mine = (lines: LogLine[]) => lines.filter((line) => line.requestId === 'ops-request-1');
    const lines = mine(
      await eventually(
        async () => parsed(gateway),
        (all) => mine(all).some((l) => l.res),
      ),
    );
    const requestLines = lines.filter((line) => line.msg === 'request completed');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      level: 30,
      agentCoreSessionId: 'ops-session-1',
      req: { method: 'POST', url: '/' },
      res: { statusCode: 200 },
    });
    expect(requestLines[0].durationMs).toEqual(expect.any(Number));
    // The run's own outcome line was written inside the request, so it carries the same ids.
    expect(lines.some((line) => JSON.stringify(line).includes('A2A_EXECUTION_FAILED'))).toBe(true);
    expect(lines.every((line) => line.agentCoreSessionId === 'ops-session-1')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('logs refused requests too, without their credentials', async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        authorization: 'Bearer wrong-secret',
        'x-amzn-bedrock-agentcore-runtime-request-id': 'ops-401',
      },
    });
    expect(response.status).toBe(401);
    const line = await eventually(
      async () => parsed(gateway).find((l) => l.requestId === 'ops-401' && l.res),
      (found) => found !== undefined,
    );
    expect(line).toMatchObject({ msg: 'request completed', res: { statusCode: 401 } });
    expect(gateway.logs.join('\n')).not.toContain('wrong-secret');
  });
});
