import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { constantTimeEqual } from './constant-time-equal';

/**
 * Bearer token check of reference §1.5, bound with @UseGuards on the gateway's own controllers. Guards run
 * before the route reads its body, so an unauthenticated request is refused without reading it.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.authToken;
    if (!expected) return true;
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const space = header.indexOf(' ');
    const scheme = space < 0 ? header : header.slice(0, space);
    const token = space < 0 ? '' : header.slice(space + 1).trim();
    if (scheme.toLowerCase() === 'bearer' && token !== '' && constantTimeEqual(token, expected)) return true;
    throw new AguiError(ErrorCode.UNAUTHORIZED, 'unauthorized');
  }
}
