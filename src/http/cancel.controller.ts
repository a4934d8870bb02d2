import { Controller, HttpCode, Inject, Param, Post, Req, UseFilters, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { RequestAuthGuard } from '../auth/request-auth.guard';
import { getRequestPrincipal } from '../auth/request-principal';
import { BodyBudget } from '../common/body-budget';
import { JsonEnvelopeFilter } from '../common/filters/json-envelope.filter';
import { setRequestLanguage } from '../common/request-language';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { negotiateLanguage } from '../i18n/negotiate-language';
import { assertJsonMediaType, readJsonBody } from '../run-input/read-json-body';
import { parseCancelRequest } from '../cancellation/cancel-request';
import { CancelService } from '../cancellation/cancel.service';

/** `POST /extensions/iac-code/v1/executions/:executionId/cancel` (docs/behaviour/cancel.md#cancel-route). */
@Controller('extensions/iac-code/v1/executions')
@UseGuards(RequestAuthGuard)
@UseFilters(JsonEnvelopeFilter)
export class CancelController {
  constructor(
    private readonly cancellation: CancelService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly budget: BodyBudget,
  ) {}

  @Post(':executionId/cancel')
  @HttpCode(200)
  async cancel(@Param('executionId') executionId: string, @Req() request: Request) {
    setRequestLanguage(
      request,
      negotiateLanguage(request.headers['accept-language'], this.config.processLanguage),
    );
    assertJsonMediaType(request);
    const principal = getRequestPrincipal(request);
    const limits = {
      maxBytes: Math.min(this.config.maxRequestBytes, this.config.maxCancelBytes),
      idleMs: this.config.http.bodyIdleMs,
      tooLargeKey: 'cancelTooLarge',
      invalidJsonKey: 'cancelInvalidJson',
      budget: this.budget,
    } as const;
    const cancelRequest = await readJsonBody(request, limits, (body) => ({
      ...parseCancelRequest(executionId, body.value),
      ...(principal !== undefined ? { principal } : {}),
    }));
    const status = await this.cancellation.cancel(cancelRequest);
    return { executionId, status };
  }
}
