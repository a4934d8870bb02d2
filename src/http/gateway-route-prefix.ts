/** Injection token of the `routePrefix` the gateway's HTTP routes are mounted under (`''` when none). */
export const GATEWAY_ROUTE_PREFIX = Symbol('GATEWAY_ROUTE_PREFIX');
