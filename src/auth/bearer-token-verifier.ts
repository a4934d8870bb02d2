import { Inject, Injectable, Logger } from '@nestjs/common';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { CLOCK, type Clock } from '../common/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { bearerChallenge } from './bearer-challenge';
import { constantTimeEqual } from './constant-time-equal';

/**
 * Decides whether a bearer token may use the AG-UI routes, for HTTP and the WebSocket handshake alike.
 * Two modes, either or both: the static IAC_CODE_AGUI_AUTH_TOKEN (constant-time compare, docs/behaviour/http.md#authentication),
 * and JWT mode (IAC_CODE_AGUI_JWT_JWKS_URL, with issuer and audience checked when configured), so the
 * container can check AgentCore-issued OAuth tokens itself. No mode configured = auth off.
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

  /** True when auth is off or the token is accepted by one of the configured modes. */
  async isAccepted(token: string | undefined): Promise<boolean> {
    if (!this.isRequired) return true;
    if (token === undefined) return false;
    const expected = this.config.authToken;
    if (expected && constantTimeEqual(token, expected)) return true;
    return this.isValidJwt(token);
  }

  private async isValidJwt(token: string): Promise<boolean> {
    const { jwksUrl, issuer, audience } = this.config.jwt;
    if (jwksUrl === undefined) return false;
    this.keySet ??= createRemoteJWKSet(new URL(jwksUrl));
    try {
      await jwtVerify(token, this.keySet, {
        ...(issuer !== undefined ? { issuer } : {}),
        ...(audience !== undefined ? { audience } : {}),
        currentDate: new Date(this.clock.now()),
      });
      return true;
    } catch (error) {
      // Expired, wrong audience, bad signature, unsigned, or the key set is unreachable: all are 401.
      this.logger.debug({ msg: 'JWT refused', reason: (error as { code?: string }).code ?? 'invalid' });
      return false;
    }
  }
}
