import { ArgumentsHost, Catch, ExceptionFilter, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { JsonEnvelopeFilter } from '../common/filters/json-envelope.filter';
import { SseRunErrorFilter } from '../common/filters/sse-run-error.filter';
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
    private readonly json: JsonEnvelopeFilter,
    private readonly sse: SseRunErrorFilter,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    (agentCoreSessionIdOf(request.headers) ? this.sse : this.json).catch(error, host);
  }
}
