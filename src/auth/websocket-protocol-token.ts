/**
 * Browsers cannot set headers on a WebSocket, so AgentCore takes the bearer token as a subprotocol pair:
 * `base64UrlBearerAuthorization.<base64url(token)>` plus the bare `base64UrlBearerAuthorization`, which the
 * server selects in its handshake answer (docs/behaviour/agentcore.md). The
 * token-carrying entry is never selected: that would echo the secret back.
 */
export const WEBSOCKET_AUTH_PROTOCOL = 'base64UrlBearerAuthorization';

const TOKEN_PREFIX = `${WEBSOCKET_AUTH_PROTOCOL}.`;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The token carried by the offered subprotocols, or undefined when none carries a well-formed one. */
export function tokenFromProtocols(protocols: Iterable<string>): string | undefined {
  for (const protocol of protocols) {
    if (!protocol.startsWith(TOKEN_PREFIX)) continue;
    const encoded = protocol.slice(TOKEN_PREFIX.length);
    if (!BASE64URL.test(encoded)) return undefined;
    const token = Buffer.from(encoded, 'base64url').toString('utf8');
    return token === '' ? undefined : token;
  }
  return undefined;
}

/** The subprotocol the server answers with: the bare marker when offered, else none. */
export function selectedProtocol(protocols: ReadonlySet<string>): string | false {
  return protocols.has(WEBSOCKET_AUTH_PROTOCOL) ? WEBSOCKET_AUTH_PROTOCOL : false;
}
