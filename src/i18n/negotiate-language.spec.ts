import { negotiateLanguage, normalizeLanguage, requestLanguage } from './negotiate-language';

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
