import { Controller, Get, Inject, Param, Req, UseFilters, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { startWith, type Observable } from 'rxjs';
import { RequestAuthGuard } from '../auth/request-auth.guard';
import { getRequestPrincipal } from '../auth/request-principal';
import { setRequestLanguage } from '../common/request-language';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { negotiateLanguage } from '../i18n/negotiate-language';
import { agentCoreSessionIdOf } from '../logging/request-log-fields';
import { ReattachService, type ReattachRequest } from '../run-log/reattach.service';
import { ReattachRefusalFilter } from './reattach-refusal.filter';
import { SSE_OPEN, SseRunRenderer } from './sse-run-renderer';
import { withHeartbeat } from './with-heartbeat';

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
    private readonly sse: SseRunRenderer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('executions/:executionId/events')
  byExecution(@Param('executionId') executionId: string, @Req() request: Request): Promise<Observable<void>> {
    return this.follow({ executionId }, request);
  }

  @Get('threads/:threadId/events')
  byThread(@Param('threadId') threadId: string, @Req() request: Request): Promise<Observable<void>> {
    return this.follow({ threadId }, request);
  }

  private async follow(target: ReattachRequest['target'], request: Request): Promise<Observable<void>> {
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
    // Admitted: the response opens now, even at the head of a quiet run whose next frame may be a heartbeat away.
    return admitted
      .frames()
      .pipe(startWith(SSE_OPEN), withHeartbeat(this.config.heartbeatMs), this.sse.render(request));
  }
}

/** A query parameter given once, as text; anything else (absent, repeated, nested) counts as absent. */
function singleText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
