import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { pinoHttpOptions } from './pino-http-options';
import { pinoLevel, pinoOptions } from './pino-options';
import { REDACTED } from './redacted-paths';
import { LOGGED_ID_LENGTH } from './truncate-log-ids';
import { requestIdOf, requestLogLevel } from './request-log-fields';

type Line = Record<string, unknown>;

/** A pino-http middleware writing into an array, and a way to push one fake request through it. */
function harness(level = 'info') {
  const lines: Line[] = [];
  const middleware = pinoHttp(
    pinoHttpOptions({ level, format: 'json' }, { prettyAvailable: true, generateId: () => 'generated-id' }),
    { write: (line: string) => lines.push(JSON.parse(line) as Line) },
  );
  const serve = (request: { method?: string; url: string; headers?: Record<string, string> }) => {
    const req = Object.assign(new EventEmitter(), {
      method: request.method ?? 'POST',
      url: request.url,
      headers: request.headers ?? {},
      socket: {},
    }) as unknown as IncomingMessage & { log: import('pino').Logger };
    const res = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as ServerResponse;
    middleware(req, res);
    return {
      req,
      res,
      finish: (status: number) => {
        // What Node does by the time 'finish' fires: the status line has been sent.
        Object.assign(res, { statusCode: status, headersSent: true });
        res.emit('finish');
      },
    };
  };
  return { lines, serve, logger: middleware.logger };
}

const SECRETS = {
  authorization: 'Bearer gateway-token',
  llmApiKey: 'sk-secret',
  props: {
    llmApiKey: 'sk-nested',
    alibabaCloud: { accessKeyId: 'AK-ID', accessKeySecret: 'AKS', securityToken: 'STS' },
    llmHeaders: { 'X-Provider-Key': 'HDR-PROPS' },
  },
  metadata: {
    iac_code: {
      iac_code_api_key: 'sk-meta',
      alibaba_cloud_access_key_secret: 'AKS-META',
      llm_headers: { 'X-Provider-Key': 'HDR-META' },
    },
  },
  upstream: { a2aToken: 'kernel-token', token: 't0k' },
};

describe('pino-http options', () => {
  it('writes one line per request when the response finishes, with the AgentCore ids and the duration', () => {
    const { lines, serve } = harness();
    const request = serve({
      url: '/invocations',
      headers: {
        authorization: 'Bearer gateway-token',
        cookie: 'session=abc',
        'x-amzn-bedrock-agentcore-runtime-request-id': 'req-123',
        'x-amzn-bedrock-agentcore-runtime-session-id': 'sess-456',
      },
    });
    request.req.log.info({ msg: 'run ended with an error', outcome: 'A2A_EXECUTION_FAILED' });
    expect(lines).toHaveLength(1);
    request.finish(200);
    expect(lines).toHaveLength(2);
    const [runLine, requestLine] = lines;
    expect(runLine).toMatchObject({
      requestId: 'req-123',
      agentCoreSessionId: 'sess-456',
      outcome: 'A2A_EXECUTION_FAILED',
    });
    expect(requestLine).toMatchObject({
      level: 30,
      msg: 'request completed',
      requestId: 'req-123',
      agentCoreSessionId: 'sess-456',
      req: { method: 'POST', url: '/invocations' },
      res: { statusCode: 200 },
    });
    expect(typeof requestLine.durationMs).toBe('number');
    const text = JSON.stringify(lines);
    for (const secret of ['gateway-token', 'session=abc']) expect(text).not.toContain(secret);
  });

  it('generates a request id when AgentCore sent none and leaves the session id out', () => {
    const { lines, serve } = harness();
    serve({ url: '/', headers: {} }).finish(409);
    expect(lines[0]).toMatchObject({ requestId: 'generated-id', res: { statusCode: 409 }, level: 30 });
    expect(lines[0]).not.toHaveProperty('agentCoreSessionId');
  });

  it.each([
    { name: 'a 5xx as an error', url: '/', status: 502, level: 50, msg: 'request failed' },
    {
      name: 'a probe at debug (hidden at info)',
      url: '/ping',
      status: 200,
      level: undefined,
      msg: undefined,
    },
    {
      name: 'a scrape at debug (hidden at info)',
      url: '/metrics',
      status: 200,
      level: undefined,
      msg: undefined,
    },
  ])('logs $name', ({ url, status, level, msg }) => {
    const { lines, serve } = harness();
    serve({ method: 'GET', url }).finish(status);
    expect(lines[0]?.level).toBe(level);
    expect(lines[0]?.msg).toBe(msg);
  });

  it('keeps query values out of every line of the request, the request line included', () => {
    const { lines, serve } = harness();
    const request = serve({ url: '/?access_token=Q-SECRET&api_key=K-SECRET&flag&=x' });
    request.req.log.warn({ msg: 'something about this request' });
    request.finish(401);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line.req).toEqual({
        method: 'POST',
        url: `/?access_token=${REDACTED}&api_key=${REDACTED}&${REDACTED}&=${REDACTED}`,
      });
    }
    expect(JSON.stringify(lines)).not.toMatch(/Q-SECRET|K-SECRET/);
  });

  it('redacts every secret field at any of the first three levels', () => {
    const { lines, logger } = harness();
    logger.info(SECRETS, 'secrets');
    const line = lines[0] as typeof SECRETS;
    expect(line.authorization).toBe(REDACTED);
    expect(line.llmApiKey).toBe(REDACTED);
    expect(line.props.llmApiKey).toBe(REDACTED);
    expect(line.props.alibabaCloud).toEqual({
      accessKeyId: REDACTED,
      accessKeySecret: REDACTED,
      securityToken: REDACTED,
    });
    expect(line.props.llmHeaders).toEqual({ 'X-Provider-Key': REDACTED });
    expect(line.metadata.iac_code).toEqual({
      iac_code_api_key: REDACTED,
      alibaba_cloud_access_key_secret: REDACTED,
      llm_headers: { 'X-Provider-Key': REDACTED },
    });
    expect(line.upstream).toEqual({ a2aToken: REDACTED, token: REDACTED });
    const text = JSON.stringify(lines);
    for (const secret of ['gateway-token', 'sk-', 'AK-ID', 'AKS', 'STS', 'HDR-', 'kernel-token', 't0k']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('pino options', () => {
  it('cuts a long id in a log line and keeps short ones whole', () => {
    const { lines, logger } = harness();
    logger.info({ threadId: 't'.repeat(1024), runId: 'run-1' }, 'run admitted');
    expect(lines[0]?.threadId).toBe(`${'t'.repeat(LOGGED_ID_LENGTH)}…(1024 chars)`);
    expect(lines[0]?.runId).toBe('run-1');
  });

  it.each([
    { format: 'pretty', prettyAvailable: true, transport: 'pino-pretty' },
    { format: 'pretty', prettyAvailable: false, transport: undefined },
    { format: 'json', prettyAvailable: true, transport: undefined },
  ] as const)(
    '$format with pino-pretty available=$prettyAvailable',
    ({ format, prettyAvailable, transport }) => {
      const options = pinoOptions({ level: 'debug', format }, prettyAvailable);
      expect((options.transport as { target?: string } | undefined)?.target).toBe(transport);
      expect(options.level).toBe('debug');
    },
  );

  it('maps Nest level names to pino', () => {
    expect(['fatal', 'error', 'warn', 'info', 'debug', 'verbose', 'trace'].map(pinoLevel)).toEqual([
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'trace',
    ]);
  });
});

describe('request log fields', () => {
  it.each([
    { name: 'the AgentCore id', header: 'abc-123', expected: 'abc-123' },
    { name: 'a fresh id when absent', header: undefined, expected: 'fresh' },
    { name: 'a fresh id for a blank header', header: '  ', expected: 'fresh' },
    { name: 'a fresh id for control characters', header: 'a\nb', expected: 'fresh' },
    { name: 'a fresh id for an oversized header', header: 'x'.repeat(257), expected: 'fresh' },
  ])('takes $name', ({ header, expected }) => {
    const headers = header === undefined ? {} : { 'x-amzn-bedrock-agentcore-runtime-request-id': header };
    expect(requestIdOf(headers, () => 'fresh')).toBe(expected);
  });

  it.each([
    { path: '/', status: 200, failed: false, level: 'info' },
    { path: '/invocations', status: 401, failed: false, level: 'info' },
    { path: '/health/ready', status: 200, failed: false, level: 'debug' },
    { path: '/metrics?x=1', status: 200, failed: false, level: 'debug' },
    { path: '/health/ready', status: 503, failed: false, level: 'error' },
    { path: '/', status: 200, failed: true, level: 'error' },
  ])('$path $status failed=$failed → $level', ({ path, status, failed, level }) => {
    expect(requestLogLevel(path, status, failed)).toBe(level);
  });
});
