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
    const verdict = await this.verifier.verify(request.bearerToken);
    if (!verdict.isAccepted) return { isAllowed: false, challenge: this.verifier.challenge };
    return verdict.principal === undefined
      ? { isAllowed: true }
      : { isAllowed: true, principal: verdict.principal };
  }
}
