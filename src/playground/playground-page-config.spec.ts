import type { AppConfig } from '../config/app-config';
import { buildPlaygroundPageConfig, defaultWorkspace } from './playground-page-config';

describe('defaultWorkspace', () => {
  it.each([
    {
      name: 'the default roots (cwd and temp dir)',
      roots: ['/srv/app', '/tmp'],
      tmp: '/tmp',
      expected: '/tmp/agui-playground',
    },
    {
      name: 'a temp dir inside a root',
      roots: ['/var'],
      tmp: '/var/tmp',
      expected: '/var/tmp/agui-playground',
    },
    {
      name: 'a temp dir outside every root',
      roots: ['/workspace', '/data'],
      tmp: '/tmp',
      expected: '/workspace/agui-playground',
    },
    {
      name: 'a root that only shares a prefix',
      roots: ['/tm'],
      tmp: '/tmp',
      expected: '/tm/agui-playground',
    },
    { name: 'no roots at all', roots: [], tmp: '/tmp', expected: '/tmp/agui-playground' },
  ])('$name', ({ roots, tmp, expected }) => expect(defaultWorkspace(roots, tmp)).toBe(expected));
});

describe('buildPlaygroundPageConfig', () => {
  const base = { allowedCwdRoots: ['/tmp'], jwt: {} } as unknown as AppConfig;

  it.each([
    { name: 'no auth', config: base, authRequired: false },
    { name: 'a bearer token', config: { ...base, authToken: 'secret-token' }, authRequired: true },
    {
      name: 'JWT mode',
      config: { ...base, jwt: { issuer: 'https://issuer.example', principalClaim: 'sub' } },
      authRequired: true,
    },
  ])('with $name: authRequired=$authRequired and never the token itself', ({ config, authRequired }) => {
    const pageConfig = buildPlaygroundPageConfig(config, '/tmp');
    expect(pageConfig).toEqual({ defaultCwd: '/tmp/agui-playground', authRequired });
    expect(JSON.stringify(pageConfig)).not.toContain('secret-token');
  });
});
