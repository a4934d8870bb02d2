import type { IncomingMessage } from 'node:http';

/**
 * The principal the authenticator named for a request (HTTP request or WebSocket upgrade), stored on it
 * once authentication allowed it, so the route reads who the caller is without asking again.
 */
const PRINCIPAL = Symbol('agui.principal');

type WithPrincipal = IncomingMessage & { [PRINCIPAL]?: string };

export function setRequestPrincipal(request: IncomingMessage, principal: string | undefined): void {
  if (principal !== undefined) (request as WithPrincipal)[PRINCIPAL] = principal;
}

/** Undefined for an anonymous caller (the static token, or auth off). */
export function getRequestPrincipal(request: IncomingMessage): string | undefined {
  return (request as WithPrincipal)[PRINCIPAL];
}
