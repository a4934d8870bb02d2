import { negotiateLanguage, normalizeLanguage, requestLanguage } from './negotiate-language';
import { MessageCatalogue } from './message-catalogue';

describe('negotiateLanguage', () => {
  it.each([
    { name: 'first of equal weights wins', header: 'ja-JP, en;q=0.5', expected: 'ja' },
    { name: 'highest q wins', header: 'zh;q=0, en;q=0.2, ja;q=1', expected: 'ja' },
    { name: 'q=0 is excluded', header: 'zh;q=0', expected: 'en' },
    { name: 'unsupported tags are skipped', header: 'ko, fr;q=0.3', expected: 'fr' },
    { name: 'star is the process default', header: '*', processDefault: 'de', expected: 'de' },
    { name: 'bad q values are dropped', header: 'es;q=abc, pt;q=2, fr;q=0.1', expected: 'fr' },
    { name: 'no header gives the process default', header: undefined, processDefault: 'pt', expected: 'pt' },
    { name: 'unsupported process default gives en', header: '', processDefault: 'ko', expected: 'en' },
    {
      name: 'a later higher weight beats an earlier lower one',
      header: 'en-US;q=0.2, zh-CN;q=1',
      expected: 'zh',
    },
  ])('$name', ({ header, processDefault, expected }) => {
    expect(negotiateLanguage(header, processDefault ?? 'en')).toBe(expected);
  });

  it('normalises tags and prefers the payload language', () => {
    expect(normalizeLanguage(' ZH_cn ')).toBe('zh');
    expect(normalizeLanguage('xx')).toBeUndefined();
    expect(requestLanguage('zh-CN', 'ja', 'en')).toBe('zh');
    expect(requestLanguage('klingon', 'ja', 'en')).toBe('ja');
  });
});

/** the language of HTTP errors, of RUN_ERROR and of the A2A metadata. */
describe('request language of ', () => {
  const catalogue = new MessageCatalogue();

  it.each([
    {
      name: '28: a 401 in ja from "ja-JP, en;q=0.5"',
      preferred: undefined,
      header: 'ja-JP, en;q=0.5',
      key: 'unauthorized',
      language: 'ja',
      message: '有効なベアラートークンが必要です。',
    },
    {
      name: '28: a 401 in ja from "zh;q=0, en;q=0.2, ja;q=1"',
      preferred: undefined,
      header: 'zh;q=0, en;q=0.2, ja;q=1',
      key: 'unauthorized',
      language: 'ja',
      message: '有効なベアラートークンが必要です。',
    },
    {
      name: '28: an invalid envelope in zh from preferredLanguage "zh-CN" over Accept-Language',
      preferred: 'zh-CN',
      header: 'ja-JP, en;q=0.5',
      key: 'invalidEnvelope',
      language: 'zh',
      message: 'AG-UI RunAgentInput 请求结构无效。',
    },
    {
      name: '29: a stream failure in zh from the request, whatever the process locale',
      preferred: 'zh',
      header: undefined,
      key: 'a2aUnavailable',
      language: 'zh',
      message: '本地 A2A 执行服务不可用。',
    },
    {
      name: '30: "en;q=0.2, zh-CN;q=1" gives a zh RUN_ERROR and a 2-letter "zh" for A2A',
      preferred: undefined,
      header: 'en;q=0.2, zh-CN;q=1',
      key: 'a2aExecutionFailed',
      language: 'zh',
      message: 'A2A 执行失败。',
    },
    {
      name: 'an unsupported preferredLanguage falls back to Accept-Language',
      preferred: 'ko-KR',
      header: 'fr-CA;q=0.8, de;q=0.9',
      key: 'threadBusy',
      language: 'de',
      message: 'Der AG-UI-Thread hat bereits eine aktive Ausführung.',
    },
  ] as const)('$name', ({ preferred, header, key, language, message }) => {
    // The process default is a locale the request overrides (test 29: "without global locale").
    const chosen = requestLanguage(preferred, header, 'pt');
    expect(chosen).toBe(language);
    expect(catalogue.render(key, chosen)).toBe(message);
  });

  it('uses the process default only when the request names no supported language', () => {
    expect(requestLanguage(undefined, undefined, 'pt')).toBe('pt');
    expect(requestLanguage('', 'ko', 'es')).toBe('es');
    expect(catalogue.render('a2aUnavailable', requestLanguage(undefined, 'ko', 'es'))).toBe(
      'El servicio local de ejecución A2A no está disponible.',
    );
  });
});
