import type { IncomingHttpHeaders } from 'node:http';

/**
 * Injection token of request authentication (CONTRIBUTING.md): the guard on the gateway's own
 * controllers and the `/ws` handshake ask it, never a concrete class. Default: BearerRequestAuthenticator.
 */
export const REQUEST_AUTHENTICATOR = Symbol('REQUEST_AUTHENTICATOR');

/** What an authenticator sees: asked before the body is read (docs/behaviour/http.md#authentication), so there is no body. */
export interface AuthenticationRequest {
  readonly transport: 'http' | 'websocket';
  readonly method: string;
  /** The request path as received (with any route prefix and query). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /**
   * The bearer token the request carries: `Authorization: Bearer …`, or on a WebSocket handshake the
   * AgentCore subprotocol pair (docs/behaviour/agentcore.md). Undefined when there is none.
   */
  readonly bearerToken?: string;
  /** The peer address of the connection (mTLS or network-based identity checks). */
  readonly remoteAddress?: string;
}

export type AuthenticationDecision =
  | { readonly isAllowed: true }
  /** `challenge`: the `WWW-Authenticate` value of the 401; omitted = no such header. */
  | { readonly isAllowed: false; readonly challenge?: string };

export interface RequestAuthenticator {
  /** Must not throw for a refusal: return `{ isAllowed: false }`. A thrown error is a 500 (or a refused handshake). */
  authenticate(request: AuthenticationRequest): AuthenticationDecision | Promise<AuthenticationDecision>;
}
