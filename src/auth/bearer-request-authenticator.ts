import { Injectable } from '@nestjs/common';
import { BearerTokenVerifier } from './bearer-token-verifier';
import type {
  AuthenticationDecision,
  AuthenticationRequest,
  RequestAuthenticator,
} from './request-authenticator';

/** The default authenticator: the static bearer token and/or JWT mode of docs/behaviour/http.md#authentication (BearerTokenVerifier). */
@Injectable()
export class BearerRequestAuthenticator implements RequestAuthenticator {
  constructor(private readonly verifier: BearerTokenVerifier) {}

  async authenticate(request: AuthenticationRequest): Promise<AuthenticationDecision> {
    return (await this.verifier.isAccepted(request.bearerToken))
      ? { isAllowed: true }
      : { isAllowed: false, challenge: this.verifier.challenge };
  }
}
