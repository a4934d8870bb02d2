import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MessageCatalogue } from '../../i18n/message-catalogue';
import { CLOCK, type Clock } from '../clock';
import { writePreStreamError } from './pre-stream-error';

/** The iac-code face: `{"error":{"code","message"}}` with the error table's status (docs/behaviour/http.md#request-checks). */
@Catch()
@Injectable()
export class JsonEnvelopeFilter implements ExceptionFilter {
  constructor(
    private readonly catalogue: MessageCatalogue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    writePreStreamError(error, http.getRequest(), http.getResponse(), 'json-envelope', {
      catalogue: this.catalogue,
      processLanguage: this.config.processLanguage,
      now: this.clock.now(),
    });
  }
}
