import { Controller, Inject, Post, Req, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { RequestAuthGuard } from '../auth/request-auth.guard';
import { getRequestPrincipal } from '../auth/request-principal';
import { JsonEnvelopeFilter } from '../common/filters/json-envelope.filter';
import { SseRunErrorFilter } from '../common/filters/sse-run-error.filter';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { agentCoreSessionIdOf, REQUEST_ID_HEADER, SESSION_ID_HEADER } from '../logging/request-log-fields';
import { RunRequestReader } from '../run-input/run-request-reader';
import type { Face } from '../run-input/run-request';
import { RunService } from '../runs/run.service';
import { SseRunRenderer } from './sse-run-renderer';
import { withHeartbeat } from './with-heartbeat';

/**
 * `POST /` (iac-code face) and `POST /invocations` (AgentCore face): the same run, rendered differently
 * only when it is refused before the stream starts. Thin on purpose: read, admit, then the run as an
 * Observable with its heartbeat, rendered as SSE (docs/architecture.md#a-run).
 */
@Controller()
@UseGuards(RequestAuthGuard)
export class RunsController {
  constructor(
    private readonly reader: RunRequestReader,
    private readonly runs: RunService,
    private readonly sse: SseRunRenderer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @UseFilters(JsonEnvelopeFilter)
  run(@Req() request: Request): Promise<Observable<void>> {
    return this.handle(request, 'iac-code');
  }

  @Post('invocations')
  @UseFilters(SseRunErrorFilter)
  invoke(@Req() request: Request): Promise<Observable<void>> {
    return this.handle(request, 'agentcore');
  }

  private async handle(request: Request, face: Face): Promise<Observable<void>> {
    echoAgentCoreIds(request, request.res as Response);
    const runRequest = await this.reader.read(request, face, getRequestPrincipal(request));
    const admitted = await this.runs.admit(runRequest);
    const events = this.runs.events(admitted);
    // A client gone during admission gets no response, so Nest never subscribes: the run is started and
    // left at once, which releases the thread and cancels the task, as for a client that leaves mid-run.
    if (request.socket.destroyed) events.subscribe().unsubscribe();
    return events.pipe(withHeartbeat(this.config.heartbeatMs), this.sse.render(request));
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
