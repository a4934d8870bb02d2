import type { Request } from 'express';
import type { Language } from '../i18n/message-catalogue';

/**
 * The language chosen for a request is stored on it once the route knows it (Accept-Language first,
 * then the payload's preferredLanguage), so a filter renders errors in that language.
 */
const LANGUAGE = Symbol('agui.language');

type WithLanguage = Request & { [LANGUAGE]?: Language };

export function setRequestLanguage(request: Request, language: Language): void {
  (request as WithLanguage)[LANGUAGE] = language;
}

export function getRequestLanguage(request: Request): Language | undefined {
  return (request as WithLanguage)[LANGUAGE];
}
