import { Controller, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestAuthGuard } from '../auth/request-auth.guard';
import { getRequestPrincipal } from '../auth/request-principal';
import { JsonEnvelopeFilter } from '../common/filters/json-envelope.filter';
import { SseRunErrorFilter } from '../common/filters/sse-run-error.filter';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { agentCoreSessionIdOf, REQUEST_ID_HEADER, SESSION_ID_HEADER } from '../logging/request-log-fields';
import { RunRequestReader } from '../run-input/run-request-reader';
import type { Face } from '../run-input/run-request';
import { RunService } from '../runs/run.service';
import { SseWriter } from './sse-writer';

/**
 * `POST /` (iac-code face) and `POST /invocations` (AgentCore face): the same run, rendered differently
 * only when it is refused before the stream starts. Thin on purpose: read, admit, stream.
 */
@Controller()
@UseGuards(RequestAuthGuard)
export class RunsController {
  constructor(
    private readonly reader: RunRequestReader,
    private readonly runs: RunService,
    private readonly sse: SseWriter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @UseFilters(JsonEnvelopeFilter)
  run(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.handle(request, response, 'iac-code');
  }

  @Post('invocations')
  @UseFilters(SseRunErrorFilter)
  invoke(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.handle(request, response, 'agentcore');
  }

  private async handle(request: Request, response: Response, face: Face): Promise<void> {
    echoAgentCoreIds(request, response);
    const runRequest = await this.reader.read(request, face, getRequestPrincipal(request));
    const admitted = await this.runs.admit(runRequest);
    const stream = this.sse.open(response, this.config.heartbeatMs);
    stream.onClientGone(this.runs.stream(admitted, stream));
  }
}

/**
 * The AgentCore session id and the request id (the platform's, or the one generated for the logs) go
 * back as response headers, on refusals too, so a client can quote them. Only ids that
 * passed the log check (printable, bounded) are echoed.
 */
function echoAgentCoreIds(request: Request, response: Response): void {
  const sessionId = agentCoreSessionIdOf(request.headers);
  if (sessionId) response.setHeader(SESSION_ID_HEADER, sessionId);
  const requestId: unknown = (request as Request & { id?: unknown }).id;
  if (typeof requestId === 'string') response.setHeader(REQUEST_ID_HEADER, requestId);
}
