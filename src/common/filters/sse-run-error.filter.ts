import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MessageCatalogue } from '../../i18n/message-catalogue';
import { CLOCK, type Clock } from '../clock';
import { writePreStreamError } from './pre-stream-error';

/**
 * The AgentCore face: the same status as the JSON face, but `text/event-stream` with one RUN_ERROR frame,
 * which is what AgentCore clients parse (docs/behaviour/http.md#error-envelope).
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
    writePreStreamError(error, http.getRequest(), http.getResponse(), 'sse-run-error', {
      catalogue: this.catalogue,
      processLanguage: this.config.processLanguage,
      now: this.clock.now(),
    });
  }
}
