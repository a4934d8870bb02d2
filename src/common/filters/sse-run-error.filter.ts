import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MessageCatalogue } from '../../i18n/message-catalogue';
import { CLOCK, type Clock } from '../clock';
import { preparePreStreamError } from './pre-stream-error';

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
    const prepared = preparePreStreamError(error, host, this.catalogue, this.config.processLanguage);
    if (!prepared) return;
    const { status, code, message } = prepared.error;
    const frame = JSON.stringify({ type: 'RUN_ERROR', code, message, timestamp: this.clock.now() });
    prepared.response
      .status(status)
      .setHeader('Content-Type', 'text/event-stream; charset=utf-8')
      .setHeader('Cache-Control', 'no-cache, no-transform')
      .end(`data: ${frame}\n\n`);
  }
}
