import type { CorsOptions } from 'cors';
import { ANY_ORIGIN } from '../config/parse-cors-origins';
import { REQUEST_ID_HEADER, SESSION_ID_HEADER } from '../logging/request-log-fields';

/** How long a browser may cache a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * The `cors` options for the configured origins: what a browser app on another origin needs to call the
 * gateway's HTTP routes. Requests carry the bearer token and the AgentCore session header, and W3C trace
 * headers when the app is traced; the app may read the 401 challenge and the echoed AgentCore ids.
 * Credentials (cookies) are never allowed: authentication is a header. Pure.
 */
export function corsOptionsFor(origins: readonly string[]): CorsOptions {
  return {
    origin: origins.includes(ANY_ORIGIN) ? ANY_ORIGIN : [...origins],
    methods: ['GET', 'POST'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Accept',
      'Accept-Language',
      SESSION_ID_HEADER,
      REQUEST_ID_HEADER,
      'traceparent',
      'tracestate',
    ],
    exposedHeaders: ['WWW-Authenticate', SESSION_ID_HEADER, REQUEST_ID_HEADER],
    credentials: false,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    preflightContinue: false,
    optionsSuccessStatus: 204,
  };
}
