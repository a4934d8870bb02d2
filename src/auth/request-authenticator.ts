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
  /**
   * `principal`: who the caller is (JWT mode: the token's `sub`, or the claim IAC_CODE_AGUI_JWT_PRINCIPAL_CLAIM
   * names). A thread is bound to the principal of its first run, and only that principal may continue,
   * cancel or reattach to it (docs/behaviour/state.md#caller-binding). Omitted = an anonymous caller
   * (the static token): it acts on threads without a principal only. A non-empty string of at most
   * 1024 characters (the id limit of README "Limits"); anything else refuses the request.
   */
  | { readonly isAllowed: true; readonly principal?: string }
  /**
   * `challenge`: the `WWW-Authenticate` value of the 401; omitted = no such header. `message`: the
   * 401's text (shown to the caller as is, so no secret in it); omitted = the catalogue's "a valid
   * bearer token is required" in the request's language.
   */
  | { readonly isAllowed: false; readonly challenge?: string; readonly message?: string };

export interface RequestAuthenticator {
  /** Must not throw for a refusal: return `{ isAllowed: false }`. A thrown error is a 500 (or a refused handshake). */
  authenticate(request: AuthenticationRequest): AuthenticationDecision | Promise<AuthenticationDecision>;
}
