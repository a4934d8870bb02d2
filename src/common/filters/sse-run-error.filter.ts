import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MessageCatalogue } from '../../i18n/message-catalogue';
import { CLOCK, type Clock } from '../clock';
import { ErrorCode } from '../error-code';
import { toErrorResponse } from './error-response';

/**
 * The AgentCore face: the same status as the JSON face, but `text/event-stream` with one RUN_ERROR frame,
 * which is what AgentCore clients parse (DESIGN "Faces").
 */
@Catch()
@Injectable()
export class SseRunErrorFilter implements ExceptionFilter {
  constructor(
    private readonly catalogue: MessageCatalogue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
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
    const frame = JSON.stringify({ type: 'RUN_ERROR', code, message, timestamp: this.clock.now() });
    response
      .status(status)
      .setHeader('Content-Type', 'text/event-stream; charset=utf-8')
      .setHeader('Cache-Control', 'no-cache, no-transform')
      .end(`data: ${frame}\n\n`);
  }
}
