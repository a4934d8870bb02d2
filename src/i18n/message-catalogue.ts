import { Injectable } from '@nestjs/common';
import { EN } from './catalogue/en';
import type { MessageKey } from './message-key';

export type Language = 'en' | 'zh' | 'es' | 'fr' | 'de' | 'ja' | 'pt';

const CATALOGUES: Partial<Record<Language, Partial<Record<MessageKey, string>>>> = { en: EN };

/** Renders catalogue keys in a language, falling back to English for a key a language lacks. */
@Injectable()
export class MessageCatalogue {
  render(key: MessageKey, language: Language = 'en'): string {
    return CATALOGUES[language]?.[key] ?? EN[key];
  }
}
