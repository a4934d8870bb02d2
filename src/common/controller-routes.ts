import { RequestMethod, type Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';

/**
 * Every path a controller serves, for any method: a preflight is an OPTIONS request to a route that
 * only answers POST or GET, so `forRoutes(Controller)` (which keeps each handler's own method) would never
 * see it. Read from the controllers' own decorators, so a new route is covered without a second list.
 */
export function controllerRoutes(controller: Type): { path: string; method: RequestMethod }[] {
  const prefixes = pathsOf(Reflect.getMetadata(PATH_METADATA, controller));
  const prototype = controller.prototype as Record<string, unknown>;
  const handlerPaths = Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor' && typeof prototype[name] === 'function')
    .flatMap((name) => {
      const metadata: unknown = Reflect.getMetadata(PATH_METADATA, prototype[name] as object);
      return metadata === undefined ? [] : pathsOf(metadata);
    });
  const paths = new Set(prefixes.flatMap((prefix) => handlerPaths.map((handler) => join(prefix, handler))));
  return [...paths].map((path) => ({ path, method: RequestMethod.ALL }));
}

function pathsOf(metadata: unknown): string[] {
  if (Array.isArray(metadata)) return metadata.filter((item): item is string => typeof item === 'string');
  return typeof metadata === 'string' ? [metadata] : ['/'];
}

function join(prefix: string, path: string): string {
  const parts = [prefix, path].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean);
  return `/${parts.join('/')}`;
}
