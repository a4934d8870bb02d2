import type { Server } from 'node:http';
import type { HttpLimits } from '../config/app-config';

/** Node checks header and request deadlines on an interval (30 s by default); this keeps them close to exact. */
const MAX_CHECK_INTERVAL_MS = 1000;

/**
 * The standalone server's own limits, set explicitly instead of Node's defaults (a 300 s request timeout
 * that lets a slow client hold a connection for minutes). `requestTimeout` covers receiving the request
 * only, never the response, so a run may stream for as long as it lasts. Call before `listen`: Node reads
 * the checking interval when the server starts listening. The body-idle limit is the routes' own
 * (`readJsonBody`), since only they read a body.
 */
export function applyHttpLimits(server: Server, limits: HttpLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // The constructor option `connectionsCheckingInterval` is kept as this own property and read when the
  // server starts listening (Node's http server); @types/node declares only the option.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    MAX_CHECK_INTERVAL_MS,
    limits.headersTimeoutMs,
  );
}
