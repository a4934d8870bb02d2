import type { IncomingHttpHeaders } from 'node:http';
import {
  agentCoreSessionIdOf,
  requestIdOf,
  REQUEST_ID_HEADER,
  SESSION_ID_HEADER,
} from '../logging/request-log-fields';

/** What the upgrade request says about every run of one WebSocket connection. */
export interface WsConnectionContext {
  readonly requestId: string;
  readonly agentCoreSessionId?: string;
  /** `?closeAfterRun=true`: one run per socket, as the AWS reference server does (docs/behaviour/agentcore.md#websocket). */
  readonly closeAfterRun: boolean;
  /**
   * `?eventIds=true`: each message is the SSE record with its `id:` line first, as on SSE, so the client can
   * reattach by its last id (docs/behaviour/reattach.md#event-ids). Off by default: AgentCore clients strip
   * exactly `data: `.
   */
  readonly sendsEventIds?: true;
  readonly acceptLanguage?: string;
  /** Who the handshake's authenticator said the caller is: every run of the socket is that caller's. */
  readonly principal?: string;
}

/**
 * Reads the connection's ids from the upgrade request. A browser cannot set headers on a WebSocket and
 * AgentCore's presigned URLs carry the session id as a query parameter (docs/behaviour/agentcore.md), so
 * each id is taken from its header, else from a query parameter of the same name (any letter case). The
 * values pass the same check as the log fields. Pure: the id generator comes in.
 */
export function wsConnectionContextOf(
  url: string | undefined,
  headers: IncomingHttpHeaders,
  generateId: () => string,
): WsConnectionContext {
  const query = new URL(url ?? '/', 'ws://gateway').searchParams;
  const withQuery: IncomingHttpHeaders = { ...queryIds(query), ...withoutEmpty(headers) };
  const agentCoreSessionId = agentCoreSessionIdOf(withQuery);
  const acceptLanguage = headers['accept-language'];
  return {
    requestId: requestIdOf(withQuery, generateId),
    ...(agentCoreSessionId ? { agentCoreSessionId } : {}),
    closeAfterRun: query.get('closeAfterRun') === 'true',
    ...(query.get('eventIds') === 'true' ? { sendsEventIds: true as const } : {}),
    ...(acceptLanguage ? { acceptLanguage } : {}),
  };
}

function queryIds(query: URLSearchParams): IncomingHttpHeaders {
  const ids: IncomingHttpHeaders = {};
  for (const [name, value] of query) {
    const lower = name.toLowerCase();
    if ((lower === SESSION_ID_HEADER || lower === REQUEST_ID_HEADER) && ids[lower] === undefined)
      ids[lower] = value;
  }
  return ids;
}

/** A header sent empty must not hide the query parameter. */
function withoutEmpty(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(([, value]) => value !== undefined && value !== ''),
  );
}
