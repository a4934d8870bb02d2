import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { authenticateCaller } from './authenticate-caller';
import { bearerTokenOf } from './bearer-token-of';
import { REQUEST_AUTHENTICATOR, type RequestAuthenticator } from './request-authenticator';
import { setRequestPrincipal } from './request-principal';

/**
 * Authentication of docs/behaviour/http.md#authentication through whatever REQUEST_AUTHENTICATOR is (bearer/JWT by default, a
 * host's own check when replaced), bound with @UseGuards on the gateway's own controllers only, never app-wide,
 * so a host application's routes are untouched . Guards run before the route reads
 * its body, so a refused request is never buffered. The challenge header is set here; the face's filter
 * keeps it. The caller's principal is stored on the request for the route (getRequestPrincipal).
 */
@Injectable()
export class RequestAuthGuard implements CanActivate {
  private readonly logger = new Logger(RequestAuthGuard.name);

  constructor(@Inject(REQUEST_AUTHENTICATOR) private readonly authenticator: RequestAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const decision = await authenticateCaller(
      this.authenticator,
      {
        transport: 'http',
        method: request.method,
        url: request.originalUrl ?? request.url,
        headers: request.headers,
        bearerToken: bearerTokenOf(request.headers.authorization),
        remoteAddress: request.socket?.remoteAddress,
      },
      this.logger,
    );
    if (decision.isAllowed) {
      setRequestPrincipal(request, decision.principal);
      return true;
    }
    if (decision.challenge) http.getResponse<Response>().setHeader('WWW-Authenticate', decision.challenge);
    throw new AguiError(
      ErrorCode.UNAUTHORIZED,
      'unauthorized',
      decision.message === undefined ? undefined : { text: decision.message },
    );
  }
}
