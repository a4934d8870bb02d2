import { ConfigError, loadConfig, type HostFacts } from './load-config';

const HOST: HostFacts = {
  cwd: '/work',
  homeDir: '/home/u',
  tmpDir: '/tmp',
  pathDelimiter: ':',
  isTty: false,
};

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, HOST);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

/** Settings that would fail open, lock everyone out or leak a secret are refused at boot, by name. */
describe('unsafe settings stop the boot', () => {
  it.each([
    { name: 'a blank auth token', variable: 'IAC_CODE_AGUI_AUTH_TOKEN', value: '   ' },
    {
      name: 'an auth token with a trailing newline',
      variable: 'IAC_CODE_AGUI_AUTH_TOKEN',
      value: 'S3CRET\n',
    },
    { name: 'a blank A2A token', variable: 'IAC_CODE_AGUI_A2A_TOKEN', value: '\t' },
    {
      name: 'an http:// Redis URL',
      variable: 'IAC_CODE_AGUI_REDIS_URL',
      value: 'http://:S3CRET@127.0.0.1:6379/0',
    },
    {
      name: 'a Redis URL that is no URL',
      variable: 'IAC_CODE_AGUI_REDIS_URL',
      value: ':S3CRET@127.0.0.1:6379',
    },
  ])('$name names $variable and does not echo the value', ({ variable, value }) => {
    const error = refusal({
      IAC_CODE_AGUI_STATE_STORE: 'redis',
      IAC_CODE_AGUI_REDIS_URL: 'redis://r:6379',
      [variable]: value,
    });
    expect(error.message).toMatch(new RegExp(`^${variable}: `));
    expect(error.message).not.toContain('S3CRET');
  });

  it.each(['redis://:S3CRET@127.0.0.1:6379/0', 'rediss://user:pw@redis.internal:6380'])(
    'accepts the Redis URL %s',
    (url) => {
      const config = loadConfig({ IAC_CODE_AGUI_STATE_STORE: 'redis', IAC_CODE_AGUI_REDIS_URL: url }, HOST);
      expect(config.store.redisUrl).toBe(url);
    },
  );

  it('reads an empty token as "not set" (auth off), as the Helm chart documents', () => {
    const config = loadConfig({ IAC_CODE_AGUI_AUTH_TOKEN: '', IAC_CODE_AGUI_A2A_TOKEN: '' }, HOST);
    expect(config.authToken).toBeUndefined();
    expect(config.upstream.a2aToken).toBeUndefined();
  });
});
