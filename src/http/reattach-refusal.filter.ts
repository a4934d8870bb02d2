import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CLOCK, type Clock } from '../common/clock';
import { writePreStreamError } from '../common/filters/pre-stream-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MessageCatalogue } from '../i18n/message-catalogue';
import { agentCoreSessionIdOf } from '../logging/request-log-fields';

/**
 * The reattach routes serve both faces: a request that came through AgentCore (it names its runtime
 * session) is refused as AgentCore clients parse refusals, one RUN_ERROR frame; any other with the JSON
 * envelope of the iac-code face (docs/behaviour/reattach.md#refusals).
 */
@Catch()
@Injectable()
export class ReattachRefusalFilter implements ExceptionFilter {
  constructor(
    private readonly catalogue: MessageCatalogue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const form = agentCoreSessionIdOf(request.headers) ? 'sse-run-error' : 'json-envelope';
    writePreStreamError(error, request, http.getResponse(), form, {
      catalogue: this.catalogue,
      processLanguage: this.config.processLanguage,
      now: this.clock.now(),
    });
  }
}
