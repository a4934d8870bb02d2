import { getMetadataStorage } from 'class-validator';
import { EnvironmentDto } from './environment.dto';
import * as net from 'node:net';
import { listenError } from './listen-error';
import { ConfigError, loadConfig, type HostFacts } from './load-config';

const HOST: HostFacts = { cwd: '/srv', homeDir: '/home/u', tmpDir: '/tmp', pathDelimiter: ':', isTty: false };
const SECRET = 's3cr3t-Pa55';

/** Values a user could mistype with a secret in them: a URL with credentials, a token, a query token. */
const CANDIDATES = [
  SECRET,
  ` ${SECRET} `,
  `http//user:${SECRET}@kernel.internal:9000`,
  `https://user:${SECRET}@kernel.example.com/path?token=${SECRET}`,
  `redis//:${SECRET}@redis:6379`,
  `${SECRET},https://user:${SECRET}@app.example.com`,
  `*,${SECRET}`,
];

/** Variables that take any text, so no candidate is refused (there is nothing to echo). */
const ACCEPTS_ANY_TEXT = new Set([
  'IAC_CODE_AGUI_STATE_DIR',
  'IAC_CODE_CONFIG_DIR',
  'IAC_CODE_AGUI_ALLOWED_CWDS',
  'IACCODE_A2A_ALLOWED_CWDS',
  'IAC_CODE_AGUI_GENERIC_WORKSPACE_ROOT',
  'IAC_CODE_AGUI_JWT_ISSUER',
  'IAC_CODE_AGUI_JWT_AUDIENCE',
  'IAC_CODE_AGUI_JWT_PRINCIPAL_CLAIM',
  'IAC_CODE_AGUI_REDIS_KEY_PREFIX',
]);

/** Every variable the service reads, from the declarations themselves: a new one is covered at once. */
const VARIABLES = [
  ...new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(EnvironmentDto, '', true, false)
      .map((check) => check.propertyName),
  ),
];

/** The boot error for `env`, or undefined when it is accepted. */
function bootError(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env, HOST);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
}

describe('boot errors never carry a secret (every setting)', () => {
  it('reads the declared variables', () => {
    expect(VARIABLES.length).toBeGreaterThan(40);
  });

  it.each(VARIABLES)('%s: every refused value is named by its variable, never echoed', (variable) => {
    // The Redis URL is checked only with the Redis store; the others need nothing else.
    const context: Record<string, string> =
      variable === 'IAC_CODE_AGUI_REDIS_URL' ? { IAC_CODE_AGUI_STATE_STORE: 'redis' } : {};
    const errors = CANDIDATES.map((value) => bootError({ ...context, [variable]: value })).filter(
      (message): message is string => message !== undefined,
    );
    for (const message of errors) {
      expect(message).toContain(variable);
      expect(message).not.toContain(SECRET);
    }
    expect(errors.length > 0).toBe(!ACCEPTS_ANY_TEXT.has(variable));
  });

  it('says what the value must be, to help fix it', () => {
    expect(bootError({ IAC_CODE_AGUI_PORT: 'eighty' })).toBe(
      'Invalid configuration:\n  IAC_CODE_AGUI_PORT: IAC_CODE_AGUI_PORT must not be greater than 65535; ' +
        'IAC_CODE_AGUI_PORT must not be less than 0; IAC_CODE_AGUI_PORT must be an integer number',
    );
  });
});

describe('a host that passes the check but cannot be listened on', () => {
  /** The error `listen()` gives for `host` and `port`, as the service gets it from Nest. */
  const listenFailure = (host: string, port = 0) =>
    new Promise<unknown>((resolve) => {
      const server = net.createServer();
      server.once('error', resolve);
      server.listen(port, host, () => server.close(() => resolve(undefined)));
    });

  it.each([`${SECRET}.invalid`, '192.0.2.1'])(
    '%s: the boot error names IAC_CODE_AGUI_HOST and the code, never the value',
    async (host) => {
      const nodeError = await listenFailure(host);
      expect(String((nodeError as Error).stack)).toContain(host);

      const error = listenError(nodeError);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toMatch(
        /^IAC_CODE_AGUI_HOST: not an address of this machine \(E[A-Z_]+\)/,
      );
      expect((error as ConfigError).message).not.toContain(host);
    },
  );

  it('a taken port names IAC_CODE_AGUI_PORT; an error that is not a listen error is left as it is', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const nodeError = await listenFailure('127.0.0.1', (blocker.address() as net.AddressInfo).port);
      expect((listenError(nodeError) as Error).message).toBe(
        'IAC_CODE_AGUI_PORT: the port is in use on that address (EADDRINUSE).',
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const other = new Error('boom');
    expect(listenError(other)).toBe(other);
  });
});
