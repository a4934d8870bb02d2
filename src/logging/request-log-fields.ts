import type { IncomingHttpHeaders } from 'node:http';
import type { LevelWithSilent } from 'pino';
import { REDACTED } from './redacted-paths';

/** AgentCore Runtime names each invocation and session in these headers (docs/behaviour/agentcore.md). */
export const REQUEST_ID_HEADER = 'x-amzn-bedrock-agentcore-runtime-request-id';
export const SESSION_ID_HEADER = 'x-amzn-bedrock-agentcore-runtime-session-id';

/** Ids longer than this, or with control characters, are not taken from a header: they are someone's data. */
const MAX_ID_LENGTH = 256;
const PRINTABLE_ID = /^[\x21-\x7e]+$/;

/** Probes and scrapes come every few seconds: their request lines are debug, not info. */
const QUIET_PATHS = new Set(['/ping', '/health', '/health/ready', '/metrics']);

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed && trimmed.length <= MAX_ID_LENGTH && PRINTABLE_ID.test(trimmed) ? trimmed : undefined;
}

/** The AgentCore request id when the platform sent one, else a fresh id. Pure: the generator comes in. */
export function requestIdOf(headers: IncomingHttpHeaders, generate: () => string): string {
  return headerValue(headers, REQUEST_ID_HEADER) ?? generate();
}

export function agentCoreSessionIdOf(headers: IncomingHttpHeaders): string | undefined {
  return headerValue(headers, SESSION_ID_HEADER);
}

/** error for 5xx and failures, debug for probes and scrapes, info for everything else. */
export function requestLogLevel(path: string, status: number, failed: boolean): LevelWithSilent {
  if (failed || status >= 500) return 'error';
  return QUIET_PATHS.has(path.split('?')[0]) ? 'debug' : 'info';
}

/**
 * What a request line says about the request: method and path, with the query's values redacted (a
 * client may put a token there, e.g. `?access_token=…`). Headers are left out on purpose (they carry the
 * bearer token and cookies; redaction backs this up) and bodies are never read here.
 */
export function requestFields(req: {
  method?: string;
  url?: string;
  originalUrl?: string;
}): Record<string, unknown> {
  return { method: req.method, url: redactQueryValues(req.originalUrl ?? req.url ?? '') };
}

/** `/p?a=1&b` → `/p?a=[Redacted]&[Redacted]`: parameter names stay readable, no value survives. */
export function redactQueryValues(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 ? (pair === '' ? '' : REDACTED) : `${pair.slice(0, equals)}=${REDACTED}`;
    })
    .join('&');
  return `${url.slice(0, start)}?${query}`;
}

export function responseFields(res: { statusCode?: number }): Record<string, unknown> {
  return { statusCode: res.statusCode };
}
