import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { writePreStreamError, type RefusalRendering } from '../common/filters/pre-stream-error';
import { refusalFormOfPath } from '../common/filters/refusal-body';
import { allowedMethods, type RouteLayerLike } from './allowed-methods';

export interface RouteFallbackOptions {
  /** The app's router stack, read per request (routes are all registered before the fallback). */
  readonly routes: () => readonly RouteLayerLike[];
  readonly rendering: () => RefusalRendering;
}

/**
 * What the standalone service answers when no controller did, in the face's form of the path: 405 with
 * `Allow` on a known path with another method, 404 on an unknown path, and 400 for a path parameter that is
 * not valid percent-encoding (Express refuses it while matching, before any controller and its filter).
 */
export function routeFallback(options: RouteFallbackOptions): {
  readonly unmatched: RequestHandler;
  readonly routingError: ErrorRequestHandler;
} {
  const refuse = (error: unknown, request: Request, response: Parameters<RequestHandler>[1]) =>
    writePreStreamError(error, request, response, refusalFormOfPath(request.path), options.rendering());
  return {
    unmatched: (request, response) => {
      const allowed = allowedMethods(options.routes(), request.path);
      if (allowed.length === 0)
        return refuse(new AguiError(ErrorCode.NOT_FOUND, 'routeNotFound'), request, response);
      response.setHeader('Allow', allowed.join(', '));
      refuse(new AguiError(ErrorCode.METHOD_NOT_ALLOWED, 'methodNotAllowed'), request, response);
    },
    routingError: (error: unknown, request, response, _next) =>
      refuse(
        isUndecodableParameter(error)
          ? new AguiError(ErrorCode.INVALID_INPUT, 'invalidPathParameter')
          : error,
        request,
        response,
      ),
  };
}

/** The router's own error for `%ZZ` and the like: a URIError it marked 400. */
function isUndecodableParameter(error: unknown): boolean {
  return error instanceof URIError && (error as URIError & { status?: number }).status === 400;
}
