import { allowedMethods, type RouteLayerLike } from './allowed-methods';

function route(path: string, ...methods: string[]): RouteLayerLike {
  return {
    route: { methods: Object.fromEntries(methods.map((method) => [method, true])) },
    match: (candidate) => candidate === path,
  };
}

const STACK: RouteLayerLike[] = [
  { match: () => true }, // a middleware: no route, never counted
  route('/', 'post'),
  route('/health', 'get'),
  route('/both', 'get'),
  route('/both', 'delete'),
];

describe('allowedMethods', () => {
  it.each([
    { path: '/', expected: ['POST'] },
    { path: '/health', expected: ['GET', 'HEAD'] },
    { path: '/both', expected: ['DELETE', 'GET', 'HEAD'] },
    { path: '/nope', expected: [] },
  ])('lists the methods of $path, HEAD with GET', ({ path, expected }) => {
    expect(allowedMethods(STACK, path)).toEqual(expected);
  });

  it('counts a route whose parameter cannot be decoded as matching the path', () => {
    const undecodable: RouteLayerLike = {
      route: { methods: { post: true } },
      match: () => {
        throw new URIError("Failed to decode param '%ZZ'");
      },
    };
    expect(allowedMethods([undecodable], '/executions/%ZZ/cancel')).toEqual(['POST']);
  });
});
