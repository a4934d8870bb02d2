import type { ArgumentsHost } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { MessageCatalogue } from '../../i18n/message-catalogue';
import { ErrorCode } from '../error-code';
import { toErrorResponse, type ErrorResponse } from './error-response';

/**
 * What both faces do before rendering an error that happened before the stream: translate it, give up on a
 * response already under way (cut it: its client must not read a half stream as complete), and keep the
 * guard's challenge (with OAuth discovery when configured) on a 401. Returns undefined when cut.
 */
export function preparePreStreamError(
  error: unknown,
  host: ArgumentsHost,
  catalogue: MessageCatalogue,
  processLanguage: string,
): { response: Response; error: ErrorResponse } | undefined {
  const http = host.switchToHttp();
  const response = http.getResponse<Response>();
  const rendered = toErrorResponse(error, http.getRequest<Request>(), catalogue, processLanguage);
  if (response.headersSent) {
    response.destroy();
    return undefined;
  }
  if (rendered.code === ErrorCode.UNAUTHORIZED && !response.hasHeader('WWW-Authenticate')) {
    response.setHeader('WWW-Authenticate', 'Bearer');
  }
  return { response, error: rendered };
}
