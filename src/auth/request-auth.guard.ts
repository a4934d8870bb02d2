import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { bearerTokenOf } from './bearer-token-of';
import { REQUEST_AUTHENTICATOR, type RequestAuthenticator } from './request-authenticator';

/**
 * Authentication of docs/behaviour/http.md#authentication through whatever REQUEST_AUTHENTICATOR is (bearer/JWT by default, a
 * host's own check when replaced), bound with @UseGuards on the gateway's own controllers only, never app-wide,
 * so a host application's routes are untouched . Guards run before the route reads
 * its body, so a refused request is never buffered. The challenge header is set here; the face's filter
 * keeps it.
 */
@Injectable()
export class RequestAuthGuard implements CanActivate {
  constructor(@Inject(REQUEST_AUTHENTICATOR) private readonly authenticator: RequestAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const decision = await this.authenticator.authenticate({
      transport: 'http',
      method: request.method,
      url: request.originalUrl ?? request.url,
      headers: request.headers,
      bearerToken: bearerTokenOf(request.headers.authorization),
      remoteAddress: request.socket?.remoteAddress,
    });
    if (decision.isAllowed) return true;
    if (decision.challenge) http.getResponse<Response>().setHeader('WWW-Authenticate', decision.challenge);
    throw new AguiError(ErrorCode.UNAUTHORIZED, 'unauthorized');
  }
}
