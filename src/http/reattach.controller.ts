import { Controller, Get, Inject, Param, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestAuthGuard } from '../auth/request-auth.guard';
import { getRequestPrincipal } from '../auth/request-principal';
import { setRequestLanguage } from '../common/request-language';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { negotiateLanguage } from '../i18n/negotiate-language';
import { agentCoreSessionIdOf } from '../logging/request-log-fields';
import { ReattachService, type ReattachRequest } from '../run-log/reattach.service';
import { ReattachRefusalFilter } from './reattach-refusal.filter';
import { SseWriter } from './sse-writer';

/**
 * The reattach routes (docs/behaviour/reattach.md#routes): a run's events after the caller's cursor, then
 * its live events to the end, as SSE with the run route's framing and heartbeat. Any number of readers
 * may follow one run; none of them cancels it, and none holds the thread.
 */
@Controller('extensions/iac-code/v1')
@UseGuards(RequestAuthGuard)
@UseFilters(ReattachRefusalFilter)
export class ReattachController {
  constructor(
    private readonly reattach: ReattachService,
    private readonly sse: SseWriter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('executions/:executionId/events')
  byExecution(
    @Param('executionId') executionId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    return this.follow({ executionId }, request, response);
  }

  @Get('threads/:threadId/events')
  byThread(
    @Param('threadId') threadId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    return this.follow({ threadId }, request, response);
  }

  private async follow(
    target: ReattachRequest['target'],
    request: Request,
    response: Response,
  ): Promise<void> {
    setRequestLanguage(
      request,
      negotiateLanguage(request.headers['accept-language'], this.config.processLanguage),
    );
    const lastEventId = request.headers['last-event-id'];
    const principal = getRequestPrincipal(request);
    const admitted = await this.reattach.admit({
      ...(principal !== undefined ? { principal } : {}),
      target,
      rosInvocationId: singleText(request.query.rosInvocationId),
      agentCoreSessionId: agentCoreSessionIdOf(request.headers) ?? null,
      cursor: typeof lastEventId === 'string' ? lastEventId : singleText(request.query.after),
    });
    const stream = this.sse.open(response, this.config.heartbeatMs);
    const follower = admitted.follow(stream);
    stream.onClientGone(() => follower.stop());
  }
}

/** A query parameter given once, as text; anything else (absent, repeated, nested) counts as absent. */
function singleText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
