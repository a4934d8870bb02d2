import type { RequestHandler } from 'express';

/** The names Express's (body-parser's) parsers carry, as Nest's own `isMiddlewareApplied` looks them up. */
const BODY_PARSER_NAMES = new Set(['jsonParser', 'urlencodedParser', 'textParser', 'rawParser']);

const PASSES_GATEWAY_ROUTES = Symbol('agui.passesGatewayRoutes');

/** What the shield needs of an Express router layer. */
export interface MiddlewareLayerLike {
  name?: string;
  handle: RequestHandler & { [PASSES_GATEWAY_ROUTES]?: true };
  route?: { readonly path?: unknown; readonly methods?: Readonly<Record<string, boolean | undefined>> };
}

/**
 * Where the gateway's routes are really mounted: `prefix`, behind whatever the host put in front of it (a
 * global prefix, `app.setGlobalPrefix('api')`), read off the registered route of `probePath` (a path only
 * the gateway serves). `prefix` alone when that route is not found.
 */
export function mountPointOf(
  stack: readonly MiddlewareLayerLike[],
  prefix: string,
  probePath: string,
): string {
  const suffix = `${prefix.replace(/\/+$/, '')}/${probePath.replace(/^\/+/, '')}`.toLowerCase();
  for (const layer of stack) {
    const path = layer.route?.path;
    if (layer.route?.methods?.post !== true || typeof path !== 'string') continue;
    if (path.toLowerCase().endsWith(suffix)) return `${path.slice(0, path.length - suffix.length)}${prefix}`;
  }
  return prefix;
}

/**
 * Which requests read their own body (docs/embedding.md#body-parsers): `POST` on the gateway's run and
 * cancel routes, as their controllers declare them (`:param` = one path segment), under the route prefix.
 * Compared as Express routes them: case-insensitive, a trailing slash ignored, the query left out.
 */
export function ownBodyRoutes(
  paths: readonly string[],
  prefix: string,
): (method: string, url: string) => boolean {
  const patterns = paths.map((path) => {
    const full = `${prefix.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`.replace(/\/+$/, '') || '/';
    const source = full
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return new RegExp(`^${source === '/' ? '' : source}/?$`, 'i');
  });
  return (method, url) => {
    if (method !== 'POST') return false;
    const path = url.split('?', 1)[0];
    return patterns.some((pattern) => pattern.test(path));
  };
}

/**
 * Makes every body parser already on the app's router (a host's `express.json()`, Nest's default parsers)
 * pass the gateway's own body routes untouched, so those routes keep their order of checks — authenticated
 * first, then a streamed read capped at the 12 MiB run body (docs/behaviour/http.md#request-checks) — in a host that keeps its body
 * parser on. Every other route is parsed as the host configured. The layers keep their place and their
 * handler's name. Returns how many parsers it wrapped (0 when the body parser is off).
 */
export function passGatewayRoutes(
  stack: readonly MiddlewareLayerLike[],
  readsOwnBody: (method: string, url: string) => boolean,
): number {
  let wrapped = 0;
  for (const layer of stack) {
    const original = layer.handle;
    if (layer.route !== undefined || !BODY_PARSER_NAMES.has(original.name) || original[PASSES_GATEWAY_ROUTES])
      continue;
    // Three parameters: Express calls a four-parameter handler only for errors.
    const handle = function (this: unknown, request, response, next) {
      if (readsOwnBody(request.method, request.originalUrl ?? request.url)) return next();
      return original.call(this, request, response, next);
    } as MiddlewareLayerLike['handle'];
    Object.defineProperty(handle, 'name', { value: original.name });
    handle[PASSES_GATEWAY_ROUTES] = true;
    layer.handle = handle;
    wrapped++;
  }
  return wrapped;
}
