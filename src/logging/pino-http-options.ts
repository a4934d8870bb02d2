import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import { pinoOptions, type LogSettings } from './pino-options';
import {
  agentCoreSessionIdOf,
  requestFields,
  requestIdOf,
  requestLogLevel,
  responseFields,
} from './request-log-fields';

type Request = IncomingMessage & { originalUrl?: string; id?: unknown };

function pathOf(req: Request): string {
  return req.originalUrl ?? req.url ?? '';
}

/**
 * pino-http settings: one line per request, written when the response finishes or closes (pino-http's
 * default, which is what an SSE run needs: its line comes when the stream ends, with the whole duration).
 * Every line made while serving a request, the run outcome lines included, carries `requestId` and the
 * AgentCore `agentCoreSessionId`. Pure: the id generator comes in.
 */
export function pinoHttpOptions(
  settings: LogSettings,
  options: { prettyAvailable: boolean; generateId: () => string },
): Options<Request, ServerResponse> {
  return {
    ...pinoOptions(settings, options.prettyAvailable),
    genReqId: (req) => requestIdOf(req.headers, options.generateId),
    customProps: (req) => {
      const sessionId = agentCoreSessionIdOf(req.headers);
      return { requestId: req.id, ...(sessionId ? { agentCoreSessionId: sessionId } : {}) };
    },
    customAttributeKeys: { responseTime: 'durationMs' },
    customLogLevel: (req, res, error) => requestLogLevel(pathOf(req), res.statusCode, error !== undefined),
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    serializers: { req: requestFields, res: responseFields },
  };
}
