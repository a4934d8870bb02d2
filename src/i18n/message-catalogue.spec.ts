import { EN } from './catalogue/en';
import { CATALOGUES, type Language, MessageCatalogue } from './message-catalogue';
import type { MessageKey } from './message-key';
import { SUPPORTED_LANGUAGES } from './negotiate-language';

const KEYS = Object.keys(EN) as MessageKey[];
const TRANSLATED = SUPPORTED_LANGUAGES.filter((language) => language !== 'en');

/**
 * Translations allowed to equal the English text. None today: every message is a sentence in each
 * language. A pair goes here only when the English word is the right one (a product name, say).
 */
const IDENTICAL_TO_ENGLISH: ReadonlyArray<readonly [Language, MessageKey]> = [];

/** Identifiers that stay as they are in every language  when the English text has them. */
const KEPT_VERBATIM = [
  'A2A',
  'AG-UI',
  'iac-code',
  'RunAgentInput',
  'Content-Type',
  'application/json',
  'JSON',
  'threadId',
  'rosInvocationId',
  'base64',
  'URL',
  '3',
  '{runId}',
];

const rows = TRANSLATED.flatMap((language) =>
  KEYS.map((key) => ({ name: `${language}.${key}`, language, key })),
);

describe('message catalogue', () => {
  it('has exactly the seven supported languages', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual(['de', 'en', 'es', 'fr', 'ja', 'pt', 'zh']);
    expect([...SUPPORTED_LANGUAGES].sort()).toEqual(Object.keys(CATALOGUES).sort());
  });

  it.each(TRANSLATED)('%s has every English key and no other', (language) => {
    expect(Object.keys(CATALOGUES[language]).sort()).toEqual([...KEYS].sort());
  });

  it.each(rows)('$name is a real translation', ({ language, key }) => {
    const text = CATALOGUES[language][key];
    expect(typeof text).toBe('string');
    expect(text.trim()).toBe(text);
    expect(text.length).toBeGreaterThan(0);
    const mayEqualEnglish = IDENTICAL_TO_ENGLISH.some(([l, k]) => l === language && k === key);
    if (!mayEqualEnglish) expect(text).not.toBe(EN[key]);
    for (const token of KEPT_VERBATIM) if (EN[key].includes(token)) expect(text).toContain(token);
    // Sentences stay sentences and labels stay labels ("Permission required" has no full stop).
    expect(/[.。]$/.test(text)).toBe(EN[key].endsWith('.'));
  });

  it('fills a placeholder with the value given, and leaves one without a value as it is', () => {
    const catalogue = new MessageCatalogue();
    expect(catalogue.render('socketBusy', 'en', { runId: '"run-7"' })).toMatch(
      /^The input with runId "run-7" was refused/,
    );
    expect(catalogue.render('socketBusy', 'de')).toContain('{runId}');
  });

  it.each(TRANSLATED)('%s gives each key its own text', (language) => {
    const texts = KEYS.map((key) => CATALOGUES[language][key]);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it.each([
    { language: 'zh', script: /[\u4e00-\u9fff]/, foreign: /[\u3040-\u30ff]/ },
    { language: 'ja', script: /[\u3040-\u30ff]/, foreign: /[\u00c0-\u017f]/ },
    { language: 'es', script: /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}/+-]+$/u, foreign: /[\u4e00-\u9fff]/ },
    { language: 'fr', script: /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}/+-]+$/u, foreign: /[\u4e00-\u9fff]/ },
    { language: 'de', script: /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}/+-]+$/u, foreign: /[\u4e00-\u9fff]/ },
    { language: 'pt', script: /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}/+-]+$/u, foreign: /[\u4e00-\u9fff]/ },
  ] as const)('$language texts are written in its own script', ({ language, script, foreign }) => {
    for (const key of KEYS) {
      expect({ key, ok: script.test(CATALOGUES[language][key]) }).toEqual({ key, ok: true });
      expect({ key, foreign: foreign.test(CATALOGUES[language][key]) }).toEqual({ key, foreign: false });
    }
  });

  it('renders in the requested language and keeps the original English strings (docs/behaviour/http.md#languages)', () => {
    const catalogue = new MessageCatalogue();
    expect(catalogue.render('unauthorized')).toBe('A valid bearer token is required.');
    expect(catalogue.render('a2aExecutionFailed', 'en')).toBe('The A2A execution failed.');
    expect(catalogue.render('a2aExecutionFailed', 'zh')).toBe('A2A 执行失败。');
    expect(catalogue.render('unauthorized', 'ja')).toBe('有効なベアラートークンが必要です。');
    expect(catalogue.render('permissionRequired', 'de')).toBe('Berechtigung erforderlich');
    expect(catalogue.render('inputRequired', 'fr')).toBe('Saisie requise');
    expect(catalogue.render('executionCancelled', 'xx' as Language)).toBe('The execution was cancelled.');
  });
});
