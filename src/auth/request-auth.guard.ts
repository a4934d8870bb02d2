import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { bearerTokenOf } from './bearer-token-of';
import { BearerTokenVerifier } from './bearer-token-verifier';

/**
 * Bearer token check of reference §1.5 (static token or JWT, see BearerTokenVerifier), bound with
 * @UseGuards on the gateway's own controllers. Guards run before the route reads its body, so an
 * unauthenticated request is refused without reading it. The challenge header is set here, where the
 * OAuth discovery URL is known; the face's filter keeps it.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(private readonly verifier: BearerTokenVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const token = bearerTokenOf(http.getRequest<Request>().headers.authorization);
    if (await this.verifier.isAccepted(token)) return true;
    http.getResponse<Response>().setHeader('WWW-Authenticate', this.verifier.challenge);
    throw new AguiError(ErrorCode.UNAUTHORIZED, 'unauthorized');
  }
}
