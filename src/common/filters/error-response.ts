import { HttpException, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { negotiateLanguage } from '../../i18n/negotiate-language';
import type { MessageCatalogue } from '../../i18n/message-catalogue';
import { isAguiError } from '../agui-error';
import { ErrorCode, HTTP_STATUS_BY_CODE } from '../error-code';
import { getRequestLanguage } from '../request-language';

export interface ErrorResponse {
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
}

const logger = new Logger('ErrorResponse');

/**
 * Turns anything thrown before the stream started into status + code + translated message. Unknown errors
 * become INTERNAL_ERROR with their cause logged, never echoed (CONTRIBUTING.md). Nest's own HTTP exceptions
 * (404 for an unknown route, a body parser's 413 in a host app) keep their status.
 */
export function toErrorResponse(
  error: unknown,
  request: Request,
  catalogue: MessageCatalogue,
  processLanguage: string,
): ErrorResponse {
  const language =
    getRequestLanguage(request) ?? negotiateLanguage(request.headers['accept-language'], processLanguage);
  if (isAguiError(error)) {
    return {
      status: HTTP_STATUS_BY_CODE[error.code],
      code: error.code,
      message: error.text ?? catalogue.render(error.messageKey, language),
    };
  }
  if (error instanceof HttpException && error.getStatus() === 404) {
    return { status: 404, code: ErrorCode.NOT_FOUND, message: catalogue.render('routeNotFound', language) };
  }
  if (error instanceof HttpException && error.getStatus() === 413) {
    return {
      status: 413,
      code: ErrorCode.REQUEST_TOO_LARGE,
      message: catalogue.render('requestTooLarge', language),
    };
  }
  logger.error(
    { msg: 'unexpected error before the stream', path: request.path },
    error instanceof Error ? error.stack : String(error),
  );
  return {
    status: 500,
    code: ErrorCode.INTERNAL_ERROR,
    message: catalogue.render('internalError', language),
  };
}
