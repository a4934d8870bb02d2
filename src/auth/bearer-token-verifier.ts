import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JWTVerifyGetKey } from 'jose';
import { CLOCK, type Clock } from '../common/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { bearerChallenge } from './bearer-challenge';
import { constantTimeEqual } from './constant-time-equal';

/** A token's verdict: accepted or not, and in JWT mode who it names (docs/behaviour/state.md#caller-binding). */
export type TokenVerdict =
  { readonly isAccepted: false } | { readonly isAccepted: true; readonly principal?: string };

/**
 * Decides whether a bearer token may use the AG-UI routes, for HTTP and the WebSocket handshake alike.
 * Two modes, either or both: the static IAC_CODE_AGUI_AUTH_TOKEN (constant-time compare, docs/behaviour/http.md#authentication),
 * and JWT mode (IAC_CODE_AGUI_JWT_JWKS_URL, with issuer and audience checked when configured), so the
 * container can check AgentCore-issued OAuth tokens itself. No mode configured = auth off. A JWT names its
 * caller (the claim IAC_CODE_AGUI_JWT_PRINCIPAL_CLAIM, `sub` by default): one without that claim as a
 * string is refused, so a verified caller always owns its threads; the static token names nobody.
 */
@Injectable()
export class BearerTokenVerifier {
  private readonly logger = new Logger(BearerTokenVerifier.name);
  /** jose caches and refreshes the key set itself; created on first use so boot needs no network. */
  private keySet?: JWTVerifyGetKey;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  get isRequired(): boolean {
    return Boolean(this.config.authToken) || this.config.jwt.jwksUrl !== undefined;
  }

  /** The `WWW-Authenticate` value to send with a 401. */
  get challenge(): string {
    return bearerChallenge(this.config.jwt.resourceMetadataUrl);
  }

  /** Accepted when auth is off or one of the configured modes accepts the token. */
  async verify(token: string | undefined): Promise<TokenVerdict> {
    if (!this.isRequired) return ACCEPTED;
    if (token === undefined) return REFUSED;
    const expected = this.config.authToken;
    if (expected && constantTimeEqual(token, expected)) return ACCEPTED;
    return this.verifyJwt(token);
  }

  private async verifyJwt(token: string): Promise<TokenVerdict> {
    const { jwksUrl, issuer, audience, principalClaim } = this.config.jwt;
    if (jwksUrl === undefined) return REFUSED;
    // jose loads with the first JWT, not at boot: a gateway without JWT mode never needs it (docs/benchmarks.md#memory-where-it-is-idle-and-per-open-run).
    const { createRemoteJWKSet, jwtVerify } = await loadJose();
    this.keySet ??= createRemoteJWKSet(new URL(jwksUrl));
    try {
      const { payload } = await jwtVerify(token, this.keySet, {
        ...(issuer !== undefined ? { issuer } : {}),
        ...(audience !== undefined ? { audience } : {}),
        currentDate: new Date(this.clock.now()),
        algorithms: ACCEPTED_ALGORITHMS,
      });
      const principal: unknown = payload[principalClaim];
      if (typeof principal === 'string' && principal !== '') return { isAccepted: true, principal };
      this.logger.debug({ msg: 'JWT refused', reason: 'no principal claim', claim: principalClaim });
      return REFUSED;
    } catch (error) {
      // Expired, wrong audience, bad signature, unsigned, or the key set is unreachable: all are 401.
      this.logger.debug({ msg: 'JWT refused', reason: (error as { code?: string }).code ?? 'invalid' });
      return REFUSED;
    }
  }
}

let joseModule: Promise<typeof import('jose')> | undefined;
const loadJose = () => (joseModule ??= import('jose'));

/**
 * The signatures a JWT may carry (docs/deployment.md#agentcore-settings): the public-key ones a JWKS is for. An
 * HMAC key a key set happens to publish (`kty: oct`) would let anyone who fetches it sign tokens; `none` is never
 * accepted.
 */
const ACCEPTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

const ACCEPTED: TokenVerdict = { isAccepted: true };
const REFUSED: TokenVerdict = { isAccepted: false };
