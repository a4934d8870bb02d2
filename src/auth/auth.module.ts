import { Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { CommonModule } from '../common/common.module';
import { GATEWAY_PARTS, type GatewayPart } from '../config/gateway-parts';
import { resolveGatewayPart } from '../config/resolve-gateway-part';
import { BearerRequestAuthenticator } from './bearer-request-authenticator';
import { BearerTokenVerifier } from './bearer-token-verifier';
import { RequestAuthGuard } from './request-auth.guard';
import { REQUEST_AUTHENTICATOR, type RequestAuthenticator } from './request-authenticator';

/** The parts of a host's `AguiGatewayModule.forRoot` options this module builds (CONTRIBUTING.md). */
export interface AuthParts {
  /** Decides whether an HTTP request or a WebSocket handshake may use the AG-UI routes. Default: bearer/JWT. */
  readonly authenticator?: GatewayPart<RequestAuthenticator>;
}

@Module({
  imports: [CommonModule],
  providers: [
    BearerTokenVerifier,
    {
      // A host's authenticator (AguiGatewayModule options) or the bearer/JWT default .
      provide: REQUEST_AUTHENTICATOR,
      inject: [{ token: GATEWAY_PARTS, optional: true }, ModuleRef, BearerTokenVerifier],
      useFactory: (
        parts: AuthParts | undefined,
        moduleRef: ModuleRef,
        verifier: BearerTokenVerifier,
      ): RequestAuthenticator | Promise<RequestAuthenticator> =>
        parts?.authenticator
          ? resolveGatewayPart(parts.authenticator, moduleRef)
          : new BearerRequestAuthenticator(verifier),
    },
    RequestAuthGuard,
  ],
  exports: [RequestAuthGuard, REQUEST_AUTHENTICATOR],
})
export class AuthModule {}
