import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MessageCatalogue } from '../../i18n/message-catalogue';
import { preparePreStreamError } from './pre-stream-error';

/** The iac-code face: `{"error":{"code","message"}}` with the error table's status (reference §1.2). */
@Catch()
@Injectable()
export class JsonEnvelopeFilter implements ExceptionFilter {
  constructor(
    private readonly catalogue: MessageCatalogue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const prepared = preparePreStreamError(error, host, this.catalogue, this.config.processLanguage);
    if (!prepared) return;
    const { status, code, message } = prepared.error;
    prepared.response.status(status).json({ error: { code, message } });
  }
}
