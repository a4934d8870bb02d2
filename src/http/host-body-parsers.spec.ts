import type { RequestHandler } from 'express';
import {
  mountPointOf,
  ownBodyRoutes,
  passGatewayRoutes,
  type MiddlewareLayerLike,
} from './host-body-parsers';

const PATHS = ['/', '/invocations', '/extensions/iac-code/v1/executions/:executionId/cancel'];

describe('ownBodyRoutes', () => {
  it.each([
    { prefix: '', method: 'POST', url: '/', owns: true },
    { prefix: '', method: 'POST', url: '/?lang=de', owns: true },
    { prefix: '', method: 'POST', url: '/Invocations/', owns: true },
    { prefix: '', method: 'POST', url: '/extensions/iac-code/v1/executions/e-1/cancel', owns: true },
    { prefix: '', method: 'POST', url: '/extensions/iac-code/v1/executions/e/1/cancel', owns: false },
    { prefix: '', method: 'GET', url: '/', owns: false },
    { prefix: '', method: 'POST', url: '/host/echo', owns: false },
    { prefix: '', method: 'POST', url: '/invocationsX', owns: false },
    { prefix: '/agents/iac', method: 'POST', url: '/agents/iac', owns: true },
    { prefix: '/agents/iac/', method: 'POST', url: '/agents/iac/invocations', owns: true },
    { prefix: '/agents/iac', method: 'POST', url: '/', owns: false },
    { prefix: '/agents/iac', method: 'POST', url: '/invocations', owns: false },
  ])('$method $url under "$prefix": $owns', ({ prefix, method, url, owns }) => {
    expect(ownBodyRoutes(PATHS, prefix)(method, url)).toBe(owns);
  });
});

describe('mountPointOf', () => {
  const CANCEL = '/extensions/iac-code/v1/executions/:executionId/cancel';
  const route = (path: string, method = 'post') => ({
    handle: (() => undefined) as never,
    route: { path, methods: { [method]: true } },
  });

  it.each([
    {
      name: 'no global prefix',
      paths: [`/agents/iac${CANCEL}`],
      prefix: '/agents/iac',
      mount: '/agents/iac',
    },
    {
      name: 'a global prefix',
      paths: ['/host/echo', `/api/agents/iac${CANCEL}`],
      prefix: '/agents/iac',
      mount: '/api/agents/iac',
    },
    { name: 'a global prefix, no route prefix', paths: [`/api${CANCEL}`], prefix: '', mount: '/api' },
    { name: 'the route not registered', paths: ['/host/echo'], prefix: '/agents/iac', mount: '/agents/iac' },
  ])('$name → $mount', ({ paths, prefix, mount }) => {
    expect(
      mountPointOf(
        paths.map((path) => route(path)),
        prefix,
        CANCEL,
      ),
    ).toBe(mount);
  });

  it('reads POST routes only', () => {
    expect(mountPointOf([route(`/api${CANCEL}`, 'get')], '', CANCEL)).toBe('');
  });
});

describe('passGatewayRoutes', () => {
  const parser = (name: string, calls: string[]): RequestHandler => {
    const handler = (request: { url: string }, _response: unknown, next: () => void) => {
      calls.push(request.url);
      next();
    };
    Object.defineProperty(handler, 'name', { value: name });
    return handler as unknown as RequestHandler;
  };
  const call = (layer: MiddlewareLayerLike, url: string) =>
    new Promise<void>((resolve) =>
      (layer.handle as unknown as (q: unknown, s: unknown, n: () => void) => void)(
        { method: 'POST', url, originalUrl: url },
        {},
        resolve,
      ),
    );

  it('makes named body parsers pass the own routes, keeps their names, and wraps each once', async () => {
    const calls: string[] = [];
    const stack: MiddlewareLayerLike[] = [
      { handle: parser('jsonParser', calls) },
      { handle: parser('requestId', calls) },
      { handle: parser('jsonParser', calls), route: { path: '/x' } },
    ];
    const owns = ownBodyRoutes(PATHS, '');
    expect(passGatewayRoutes(stack, owns)).toBe(1);
    expect(passGatewayRoutes(stack, owns)).toBe(0);
    expect(stack[0].handle.name).toBe('jsonParser');
    expect(stack[0].handle.length).toBe(3);
    await call(stack[0], '/invocations');
    await call(stack[0], '/host/echo');
    await call(stack[1], '/invocations');
    expect(calls).toEqual(['/host/echo', '/invocations']);
  });
});
