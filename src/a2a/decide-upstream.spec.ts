import { ConfigError } from '../config/load-config';
import { decideUpstream, NO_UPSTREAM_DEMO_HINT, NO_UPSTREAM_MESSAGE } from './decide-upstream';

const IAC_CODE = '/usr/local/bin/iac-code';

describe('decideUpstream', () => {
  it.each([
    {
      name: 'demo mode starts the embedded demo kernel',
      upstream: { mode: 'demo' as const, allowRemote: false },
      executable: IAC_CODE,
      expected: { kind: 'demo' },
    },
    {
      name: 'demo mode wins over a configured URL',
      upstream: { mode: 'demo' as const, a2aUrl: 'http://127.0.0.1:9000', allowRemote: false },
      executable: undefined,
      expected: { kind: 'demo' },
    },
    {
      name: 'auto with a URL uses it, normalised to end with /, with its token',
      upstream: {
        mode: 'auto' as const,
        a2aUrl: 'http://127.0.0.1:9000',
        a2aToken: 'tok',
        allowRemote: false,
      },
      executable: IAC_CODE,
      expected: { kind: 'url', url: 'http://127.0.0.1:9000/', token: 'tok' },
    },
    {
      name: 'auto with a URL already ending with / keeps it',
      upstream: { mode: 'auto' as const, a2aUrl: 'http://localhost:9000/a2a/', allowRemote: false },
      executable: undefined,
      expected: { kind: 'url', url: 'http://localhost:9000/a2a/', token: undefined },
    },
    {
      name: 'auto without a URL runs the managed child when iac-code is on PATH',
      upstream: { mode: 'auto' as const, allowRemote: false },
      executable: IAC_CODE,
      expected: { kind: 'managed', executable: IAC_CODE },
    },
  ])('$name', ({ upstream, executable, expected }) => {
    expect(decideUpstream(upstream, executable)).toEqual(expected);
  });

  it('refuses to start when nothing is available, naming only what a production build can start', () => {
    const decide = () => decideUpstream({ mode: 'auto', allowRemote: false }, undefined);

    expect(decide).toThrow(ConfigError);
    expect(decide).toThrow(NO_UPSTREAM_MESSAGE);
    expect(NO_UPSTREAM_MESSAGE).toMatch(/IAC_CODE_AGUI_A2A_URL.*iac-code.*PATH/s);
    expect(NO_UPSTREAM_MESSAGE).not.toContain('demo');
  });

  it('in a build that holds the demo agent, the refusal names it too', () => {
    const decide = () => decideUpstream({ mode: 'auto', allowRemote: false }, undefined, true);

    expect(decide).toThrow(NO_UPSTREAM_MESSAGE + NO_UPSTREAM_DEMO_HINT);
    expect(NO_UPSTREAM_DEMO_HINT).toContain('IAC_CODE_AGUI_UPSTREAM=demo');
  });
});
