import { Injectable } from '@nestjs/common';
import type { AuthenticationDecision, AuthenticationRequest, RequestAuthenticator } from 'agui-a2a-gateway';

/** The header a trusted front proxy (mTLS terminator, company SSO) sets after it has identified the caller. */
export const USER_ID_HEADER = 'x-user-id';

const USER_ID = /^[A-Za-z0-9._@-]{1,128}$/;

/**
 * Replaces the gateway's bearer/JWT check: a request (or WebSocket handshake) is allowed when the proxy in
 * front named a well-formed user, who becomes the caller's principal. Only sound behind a proxy that strips
 * this header from client requests.
 */
@Injectable()
export class IngressIdentityAuthenticator implements RequestAuthenticator {
  authenticate(request: AuthenticationRequest): AuthenticationDecision {
    const userId = request.headers[USER_ID_HEADER];
    return typeof userId === 'string' && USER_ID.test(userId)
      ? { isAllowed: true, principal: userId }
      : { isAllowed: false, message: 'Sign in through the company portal first.' };
  }
}
