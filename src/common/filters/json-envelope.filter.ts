import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MessageCatalogue } from '../../i18n/message-catalogue';
import { ErrorCode } from '../error-code';
import { toErrorResponse } from './error-response';

/** The iac-code face: `{"error":{"code","message"}}` with the error table's status (reference §1.2). */
@Catch()
@Injectable()
export class JsonEnvelopeFilter implements ExceptionFilter {
  constructor(
    private readonly catalogue: MessageCatalogue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const { status, code, message } = toErrorResponse(
      error,
      request,
      this.catalogue,
      this.config.processLanguage,
    );
    if (response.headersSent) {
      response.destroy();
      return;
    }
    // The guard already set the challenge (with OAuth discovery when configured); keep it.
    if (code === ErrorCode.UNAUTHORIZED && !response.hasHeader('WWW-Authenticate'))
      response.setHeader('WWW-Authenticate', 'Bearer');
    response.status(status).json({ error: { code, message } });
  }
}
