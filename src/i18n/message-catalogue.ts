import { Injectable } from '@nestjs/common';
import { DE } from './catalogue/de';
import { EN } from './catalogue/en';
import { ES } from './catalogue/es';
import { FR } from './catalogue/fr';
import { JA } from './catalogue/ja';
import { PT } from './catalogue/pt';
import { ZH } from './catalogue/zh';
import type { MessageKey } from './message-key';

export type Language = 'en' | 'zh' | 'es' | 'fr' | 'de' | 'ja' | 'pt';

/**
 * Every language has every key: each translation is a `Record<MessageKey, string>`, so a key added to the
 * English source does not compile until all six translations have it (docs/behaviour/http.md#languages).
 */
export const CATALOGUES: Readonly<Record<Language, Readonly<Record<MessageKey, string>>>> = {
  en: EN,
  zh: ZH,
  es: ES,
  fr: FR,
  de: DE,
  ja: JA,
  pt: PT,
};

/**
 * Renders catalogue keys in a language; an unknown language (only possible through a cast) gets English. A
 * message may name a value with a `{name}` placeholder, filled from `values` (the caller bounds them).
 */
@Injectable()
export class MessageCatalogue {
  render(key: MessageKey, language: Language = 'en', values: Readonly<Record<string, string>> = {}): string {
    const text = (CATALOGUES[language] ?? EN)[key];
    return text.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
  }
}
