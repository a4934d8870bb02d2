import { loadConfig } from './load-config';
import { mergeConfig, type AppConfigOverrides } from './merge-config';

const base = loadConfig(
  { IAC_CODE_AGUI_AUTH_TOKEN: 'from-env', IAC_CODE_AGUI_A2A_URL: 'http://127.0.0.1:9000' },
  { cwd: '/work', homeDir: '/home/u', tmpDir: '/tmp', pathDelimiter: ':', isTty: false },
);

describe('mergeConfig', () => {
  it.each<{ name: string; overrides: AppConfigOverrides | undefined; expected: Record<string, unknown> }>([
    {
      name: 'no overrides keep the environment',
      overrides: undefined,
      expected: { authToken: 'from-env', port: 8000 },
    },
    {
      name: 'a top-level key replaces',
      overrides: { port: 9100, authToken: 'typed' },
      expected: { port: 9100, authToken: 'typed' },
    },
    {
      name: 'a group merges key by key',
      overrides: { upstream: { mode: 'demo' } },
      expected: {
        upstream: { mode: 'demo', a2aUrl: 'http://127.0.0.1:9000', a2aToken: undefined, allowRemote: false },
      },
    },
    {
      name: 'an array replaces as a whole',
      overrides: { allowedCwdRoots: ['/srv'] },
      expected: { allowedCwdRoots: ['/srv'] },
    },
  ])('$name', ({ overrides, expected }) => {
    expect(mergeConfig(base, overrides)).toMatchObject(expected);
  });

  it('returns a frozen tree and leaves the base untouched', () => {
    const merged = mergeConfig(base, { store: { keyPrefix: 'team:' } });
    expect(Object.isFrozen(merged) && Object.isFrozen(merged.store)).toBe(true);
    expect(merged.store).toEqual({ ...base.store, keyPrefix: 'team:' });
    expect(base.store.keyPrefix).toBe('agui:');
  });
});
