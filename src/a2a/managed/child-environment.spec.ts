import { buildChildArguments, buildChildEnvironment } from './child-environment';

interface EnvironmentCase {
  readonly name: string;
  readonly inherited: Record<string, string>;
  readonly expected: Record<string, string>;
}

describe('buildChildEnvironment', () => {
  it.each<EnvironmentCase>([
    {
      name: 'copies the gateway roots to the kernel variable when it is unset',
      inherited: { PATH: '/bin', IAC_CODE_AGUI_ALLOWED_CWDS: '/a:/b' },
      expected: {
        PATH: '/bin',
        IAC_CODE_AGUI_ALLOWED_CWDS: '/a:/b',
        IACCODE_A2A_ALLOWED_CWDS: '/a:/b',
        IACCODE_A2A_HTTP_TOKEN: 't',
      },
    },
    {
      name: 'keeps an explicit kernel roots variable',
      inherited: { IAC_CODE_AGUI_ALLOWED_CWDS: '/a', IACCODE_A2A_ALLOWED_CWDS: '/k' },
      expected: {
        IAC_CODE_AGUI_ALLOWED_CWDS: '/a',
        IACCODE_A2A_ALLOWED_CWDS: '/k',
        IACCODE_A2A_HTTP_TOKEN: 't',
      },
    },
    {
      name: 'sets no roots when the gateway has none configured, and inherits the rest (T-PROC)',
      inherited: { IAC_CODE_MODE: 'x', IAC_CODE_A2A_SAFE_MODE: '1' },
      expected: { IAC_CODE_MODE: 'x', IAC_CODE_A2A_SAFE_MODE: '1', IACCODE_A2A_HTTP_TOKEN: 't' },
    },
    {
      name: 'replaces an inherited kernel token with the generated one',
      inherited: { IACCODE_A2A_HTTP_TOKEN: 'old' },
      expected: { IACCODE_A2A_HTTP_TOKEN: 't' },
    },
  ])('$name', ({ inherited, expected }) => {
    expect(buildChildEnvironment(inherited, 't')).toEqual(expected);
  });

  it('does not change the inherited object', () => {
    const inherited = { IAC_CODE_AGUI_ALLOWED_CWDS: '/a' };
    buildChildEnvironment(inherited, 't');
    expect(inherited).toEqual({ IAC_CODE_AGUI_ALLOWED_CWDS: '/a' });
  });
});

describe('buildChildArguments', () => {
  it('binds loopback on the given port with all thinking exposed', () => {
    expect(buildChildArguments(4321)).toEqual([
      'a2a',
      '--host',
      '127.0.0.1',
      '--port',
      '4321',
      '--thinking-exposure',
      'all',
    ]);
  });
});
