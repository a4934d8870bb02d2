import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { setRequestLanguage } from '../common/request-language';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { negotiateLanguage, requestLanguage } from '../i18n/negotiate-language';
import { parseRunAgentInput, preferredLanguageOf } from './input/parse-run-input';
import { assertJsonMediaType, readJsonBody } from './read-json-body';
import type { Face, RunRequest } from './run-request';

/**
 * Turns an HTTP request into a validated RunRequest in the order of reference §1.2: language, media type,
 * capped body, JSON, envelope, forwarded properties. Runs after the guard, so nothing here is reached
 * without a valid token.
 */
@Injectable()
export class RunRequestReader {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async read(request: Request, face: Face): Promise<RunRequest> {
    const acceptLanguage = request.headers['accept-language'];
    setRequestLanguage(request, negotiateLanguage(acceptLanguage, this.config.processLanguage));
    assertJsonMediaType(request);
    const body = await readJsonBody(request, {
      maxBytes: this.config.maxRequestBytes,
      tooLargeKey: 'requestTooLarge',
      invalidJsonKey: 'invalidJson',
    });
    // The payload's language applies even to the envelope's own validation errors (reference §1.2 step 7).
    const language = requestLanguage(
      preferredLanguageOf(body.value),
      acceptLanguage,
      this.config.processLanguage,
    );
    setRequestLanguage(request, language);
    const input = parseRunAgentInput(body.value);
    return { input, props: input.forwardedProps.iacCode, rawBody: body.raw, language, face };
  }
}
