import { ConfigError, loadConfig, type HostFacts } from './load-config';
import type { AppConfig } from './app-config';

const HOST: HostFacts = {
  cwd: '/srv/app',
  homeDir: '/home/agui',
  tmpDir: '/tmp',
  pathDelimiter: ':',
  isTty: false,
};

/** One setting: where it lands in AppConfig, its default, a valid value and an invalid one. */
interface SettingCase {
  readonly variable: string;
  readonly read: (config: AppConfig) => unknown;
  readonly byDefault: unknown;
  readonly valid: readonly [string, unknown];
  /** Omitted for free-form strings, which have no invalid value. */
  readonly invalid?: string;
  /** Other variables the case needs (e.g. the Redis store for the Redis settings). */
  readonly with?: Readonly<Record<string, string>>;
}

const SETTINGS: readonly SettingCase[] = [
  {
    variable: 'IAC_CODE_AGUI_HOST',
    read: (c) => c.host,
    byDefault: '127.0.0.1',
    valid: ['0.0.0.0', '0.0.0.0'],
    invalid: '',
  },
  {
    variable: 'IAC_CODE_AGUI_PORT',
    read: (c) => c.port,
    byDefault: 8000,
    valid: ['8080', 8080],
    invalid: '70000',
  },
  {
    variable: 'IAC_CODE_AGUI_AUTH_TOKEN',
    read: (c) => c.authToken,
    byDefault: undefined,
    valid: ['s3cret', 's3cret'],
  },
  {
    variable: 'IAC_CODE_AGUI_UPSTREAM',
    read: (c) => c.upstream.mode,
    byDefault: 'auto',
    valid: ['demo', 'demo'],
    invalid: 'remote',
  },
  {
    variable: 'IAC_CODE_AGUI_A2A_URL',
    read: (c) => c.upstream.a2aUrl,
    byDefault: undefined,
    valid: ['http://127.0.0.1:41242/', 'http://127.0.0.1:41242/'],
    invalid: 'ftp://127.0.0.1/',
  },
  {
    variable: 'IAC_CODE_AGUI_A2A_TOKEN',
    read: (c) => c.upstream.a2aToken,
    byDefault: undefined,
    valid: ['k', 'k'],
  },
  {
    variable: 'IAC_CODE_AGUI_A2A_ALLOW_REMOTE',
    read: (c) => c.upstream.allowRemote,
    byDefault: false,
    valid: ['true', true],
    invalid: 'maybe',
  },
  {
    variable: 'IAC_CODE_CONFIG_DIR',
    read: (c) => c.configDir,
    byDefault: '/home/agui/.iac-code',
    valid: ['~/cfg', '/home/agui/cfg'],
    invalid: '',
  },
  {
    variable: 'IAC_CODE_AGUI_STATE_DIR',
    read: (c) => c.stateDir,
    byDefault: '/home/agui/.iac-code/agui',
    valid: ['/var/lib/agui', '/var/lib/agui'],
    invalid: '',
  },
  {
    variable: 'IAC_CODE_AGUI_ALLOWED_CWDS',
    read: (c) => c.allowedCwdRoots,
    byDefault: ['/srv/app', '/tmp'],
    valid: ['/workspace: ~/w', ['/workspace', '/home/agui/w']],
  },
  {
    variable: 'IACCODE_A2A_ALLOWED_CWDS',
    read: (c) => c.allowedCwdRoots,
    byDefault: ['/srv/app', '/tmp'],
    valid: ['/data', ['/data']],
  },
  {
    variable: 'IAC_CODE_AGUI_HEARTBEAT_SECONDS',
    read: (c) => c.heartbeatMs,
    byDefault: 15000,
    valid: ['2.5', 2500],
    invalid: '0',
  },
  {
    variable: 'IAC_CODE_AGUI_INTERRUPT_TTL',
    read: (c) => c.interruptTtlSeconds,
    byDefault: 540,
    valid: ['0', 0],
    invalid: '1.5',
  },
  {
    variable: 'IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS',
    read: (c) => c.cancelTimeoutMs,
    byDefault: 10000,
    valid: ['3', 3000],
    invalid: '601',
  },
  {
    variable: 'IAC_CODE_AGUI_REATTACH_SECONDS',
    read: (c) => c.reattach.graceMs,
    byDefault: 0,
    valid: ['2.5', 2500],
    invalid: '3601',
  },
  {
    variable: 'IAC_CODE_AGUI_REATTACH_MAX_EVENTS',
    read: (c) => c.reattach.maxEventsPerRun,
    byDefault: 20_000,
    valid: ['500', 500],
    invalid: '0',
  },
  {
    variable: 'IAC_CODE_AGUI_REATTACH_MAX_BYTES',
    read: (c) => c.reattach.maxBytesPerRun,
    byDefault: 8 * 1024 * 1024,
    valid: ['65536', 65536],
    invalid: '12.5',
  },
  {
    variable: 'IAC_CODE_AGUI_REATTACH_TOTAL_BYTES',
    read: (c) => c.reattach.maxBytesTotal,
    byDefault: 256 * 1024 * 1024,
    valid: ['1048576', 1048576],
    invalid: '100',
  },
  {
    variable: 'IAC_CODE_AGUI_GENERIC_CLIENTS',
    read: (c) => c.genericClients,
    byDefault: false,
    valid: ['yes', true],
    invalid: 'sometimes',
  },
  {
    variable: 'IAC_CODE_AGUI_GENERIC_WORKSPACE_ROOT',
    read: (c) => c.genericWorkspaceRoot,
    byDefault: '/home/agui/.iac-code/agui/workspaces',
    valid: ['/workspace/generic', '/workspace/generic'],
    invalid: '',
  },
  {
    variable: 'IAC_CODE_AGUI_SESSION_BINDING',
    read: (c) => c.sessionBinding,
    byDefault: false,
    valid: ['1', true],
    invalid: '2',
  },
  {
    variable: 'IAC_CODE_AGUI_PRINCIPAL_USER_ID',
    read: (c) => c.principalUserId,
    byDefault: 'keep',
    valid: ['match', 'match'],
    invalid: 'always',
  },
  {
    variable: 'IAC_CODE_AGUI_JWT_PRINCIPAL_CLAIM',
    read: (c) => c.jwt.principalClaim,
    byDefault: 'sub',
    valid: ['email', 'email'],
    invalid: '',
  },
  {
    variable: 'IAC_CODE_AGUI_JWT_ISSUER',
    read: (c) => c.jwt.issuer,
    byDefault: undefined,
    valid: ['https://issuer', 'https://issuer'],
    invalid: '',
  },
  {
    variable: 'IAC_CODE_AGUI_JWT_AUDIENCE',
    read: (c) => c.jwt.audience,
    byDefault: undefined,
    valid: ['agui', 'agui'],
    invalid: '',
  },
  {
    variable: 'IAC_CODE_AGUI_JWT_JWKS_URL',
    read: (c) => c.jwt.jwksUrl,
    byDefault: undefined,
    valid: ['https://issuer/.well-known/jwks.json', 'https://issuer/.well-known/jwks.json'],
    invalid: 'not a url',
  },
  {
    variable: 'IAC_CODE_AGUI_OAUTH_RESOURCE_METADATA_URL',
    read: (c) => c.jwt.resourceMetadataUrl,
    byDefault: undefined,
    valid: [
      'https://gw/.well-known/oauth-protected-resource',
      'https://gw/.well-known/oauth-protected-resource',
    ],
    invalid: 'gw',
  },
  {
    variable: 'IAC_CODE_AGUI_DRAIN_SECONDS',
    read: (c) => c.drainMs,
    byDefault: 30000,
    valid: ['0', 0],
    invalid: '-1',
  },
  {
    variable: 'IAC_CODE_AGUI_LOG_LEVEL',
    read: (c) => c.log.level,
    byDefault: 'info',
    valid: ['debug', 'debug'],
    invalid: 'loud',
  },
  {
    variable: 'IAC_CODE_AGUI_LOG_FORMAT',
    read: (c) => c.log.format,
    byDefault: 'json',
    valid: ['pretty', 'pretty'],
    invalid: 'xml',
  },
  {
    variable: 'IAC_CODE_AGUI_METRICS_PUBLIC',
    read: (c) => c.metricsPublic,
    byDefault: false,
    valid: ['on', true],
    invalid: 'public',
  },
  {
    variable: 'IAC_CODE_AGUI_TRACING',
    read: (c) => c.tracing,
    byDefault: false,
    valid: ['true', true],
    invalid: 'otel',
  },
  {
    variable: 'IAC_CODE_AGUI_PLAYGROUND',
    read: (c) => c.playground,
    byDefault: false,
    valid: ['true', true],
    invalid: 'page',
  },
  {
    variable: 'IAC_CODE_AGUI_A2A_IDLE_SECONDS',
    read: (c) => c.a2aIdleMs,
    byDefault: 120000,
    valid: ['30', 30000],
    invalid: '0',
  },
  {
    variable: 'IAC_CODE_AGUI_A2A_CALL_TIMEOUT_SECONDS',
    read: (c) => c.a2aCallTimeoutMs,
    byDefault: 60000,
    valid: ['5', 5000],
    invalid: 'soon',
  },
  {
    variable: 'IAC_CODE_AGUI_CORS_ORIGINS',
    read: (c) => c.corsOrigins,
    byDefault: [],
    valid: [
      'https://app.example.com, http://localhost:5173',
      ['https://app.example.com', 'http://localhost:5173'],
    ],
    invalid: 'https://app.example.com/path',
  },
  {
    variable: 'IAC_CODE_AGUI_MANAGED_START_SECONDS',
    read: (c) => c.managedStartTimeoutMs,
    byDefault: 60000,
    valid: ['0.25', 250],
    invalid: '3601',
  },
  {
    variable: 'IAC_CODE_AGUI_THREAD_CACHE_SIZE',
    read: (c) => c.threadCacheSize,
    byDefault: 2000,
    valid: ['100', 100],
    invalid: '0',
  },
  {
    variable: 'IAC_CODE_AGUI_BODY_BUDGET_BYTES',
    read: (c) => c.bodyBudgetBytes,
    byDefault: 67108864,
    valid: ['16777216', 16777216],
    invalid: '1048576',
  },
  {
    variable: 'IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS',
    read: (c) => c.memoryReclaimMs,
    byDefault: 10000,
    valid: ['0', 0],
    invalid: '0.5',
  },
  {
    variable: 'IAC_CODE_AGUI_WS_MISSED_PONGS',
    read: (c) => c.wsMissedPongLimit,
    byDefault: 2,
    valid: ['5', 5],
    invalid: '0',
  },
  {
    variable: 'IAC_CODE_AGUI_THREAD_CACHE_BYTES',
    read: (c) => c.threadCacheBytes,
    byDefault: 33554432,
    valid: ['1048576', 1048576],
    invalid: '1024',
  },
  {
    variable: 'IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS',
    read: (c) => c.http.headersTimeoutMs,
    byDefault: 20000,
    valid: ['10', 10000],
    invalid: '0',
  },
  {
    variable: 'IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS',
    read: (c) => c.http.requestTimeoutMs,
    byDefault: 120000,
    valid: ['0', 0],
    invalid: '-1',
  },
  {
    variable: 'IAC_CODE_AGUI_HTTP_BODY_IDLE_SECONDS',
    read: (c) => c.http.bodyIdleMs,
    byDefault: 30000,
    valid: ['5', 5000],
    invalid: 'idle',
  },
  {
    variable: 'IAC_CODE_AGUI_HTTP_KEEP_ALIVE_SECONDS',
    read: (c) => c.http.keepAliveTimeoutMs,
    byDefault: 5000,
    valid: ['65', 65000],
    invalid: '3601',
  },
  {
    variable: 'IAC_CODE_AGUI_STATE_STORE',
    read: (c) => c.store.kind,
    byDefault: 'file',
    valid: ['redis', 'redis'],
    invalid: 'etcd',
    with: { IAC_CODE_AGUI_REDIS_URL: 'redis://127.0.0.1:6379/0' },
  },
  {
    variable: 'IAC_CODE_AGUI_REDIS_URL',
    read: (c) => c.store.redisUrl,
    byDefault: undefined,
    valid: ['redis://127.0.0.1:6379/0', 'redis://127.0.0.1:6379/0'],
    invalid: 'http://:S3CRET@127.0.0.1:6379/0',
  },
  {
    variable: 'IAC_CODE_AGUI_REDIS_KEY_PREFIX',
    read: (c) => c.store.keyPrefix,
    byDefault: 'agui:',
    valid: ['prod:', 'prod:'],
  },
  {
    variable: 'IAC_CODE_AGUI_REDIS_TLS',
    read: (c) => c.store.tls,
    byDefault: false,
    valid: ['true', true],
    invalid: 'tls',
  },
  {
    variable: 'IAC_CODE_AGUI_REDIS_LEASE_TTL_SECONDS',
    read: (c) => c.store.leaseTtlMs,
    byDefault: undefined,
    valid: ['1.5', 1500],
    invalid: '0.1',
  },
  {
    variable: 'IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE',
    read: (c) => c.store.allowVolatile,
    byDefault: false,
    valid: ['true', true],
    invalid: 'maybe',
  },
];

describe('loadConfig: every setting', () => {
  describe.each(SETTINGS)('$variable', ({ variable, read, byDefault, valid, invalid, with: others = {} }) => {
    it('has its documented default', () => {
      expect(read(loadConfig({}, HOST))).toEqual(byDefault);
    });

    it(`takes a valid value (${JSON.stringify(valid[0])})`, () => {
      expect(read(loadConfig({ ...others, [variable]: valid[0] }, HOST))).toEqual(valid[1]);
    });

    if (invalid !== undefined) {
      it(`refuses ${JSON.stringify(invalid)} with a message naming the variable`, () => {
        const load = () => loadConfig({ ...others, [variable]: invalid }, HOST);
        expect(load).toThrow(ConfigError);
        // The message names the variable; it need not echo the value (tokens and URLs are secrets).
        expect(load).toThrow(new RegExp(`\\b${variable}\\b`));
      });
    }
  });
});

describe('loadConfig: rules across settings', () => {
  it.each(['0', '-5', '3601', 'soon', ''])('refuses a managed start bound of %j', (value) => {
    const load = () => loadConfig({ IAC_CODE_AGUI_MANAGED_START_SECONDS: value }, HOST);
    expect(load).toThrow(/IAC_CODE_AGUI_MANAGED_START_SECONDS: /);
  });

  it('refuses a remote A2A URL unless remote kernels are allowed', () => {
    const remote = { IAC_CODE_AGUI_A2A_URL: 'https://kernel.internal/' };
    expect(() => loadConfig(remote, HOST)).toThrow(/IAC_CODE_AGUI_A2A_URL: .*loopback/);
    expect(loadConfig({ ...remote, IAC_CODE_AGUI_A2A_ALLOW_REMOTE: 'true' }, HOST).upstream.a2aUrl).toBe(
      'https://kernel.internal/',
    );
  });

  it('needs a Redis URL for the Redis store', () => {
    expect(() => loadConfig({ IAC_CODE_AGUI_STATE_STORE: 'redis' }, HOST)).toThrow(
      /IAC_CODE_AGUI_REDIS_URL: required/,
    );
  });

  it('prefers IAC_CODE_AGUI_ALLOWED_CWDS over the kernel variable', () => {
    const config = loadConfig({ IAC_CODE_AGUI_ALLOWED_CWDS: '/a', IACCODE_A2A_ALLOWED_CWDS: '/b' }, HOST);
    expect(config.allowedCwdRoots).toEqual(['/a']);
  });

  it('puts the state dir under the config dir by default', () => {
    expect(loadConfig({ IAC_CODE_CONFIG_DIR: '/etc/iac' }, HOST).stateDir).toBe('/etc/iac/agui');
  });

  it('turns the playground on by default for the demo upstream only', () => {
    expect(loadConfig({ IAC_CODE_AGUI_UPSTREAM: 'demo' }, HOST).playground).toBe(true);
    expect(
      loadConfig({ IAC_CODE_AGUI_UPSTREAM: 'demo', IAC_CODE_AGUI_PLAYGROUND: 'false' }, HOST).playground,
    ).toBe(false);
  });

  it('logs pretty on a terminal unless told otherwise', () => {
    expect(loadConfig({}, { ...HOST, isTty: true }).log.format).toBe('pretty');
    expect(loadConfig({ IAC_CODE_AGUI_LOG_FORMAT: 'json' }, { ...HOST, isTty: true }).log.format).toBe(
      'json',
    );
  });

  it('reads the process language from the locale variables in order', () => {
    expect(loadConfig({}, HOST).processLanguage).toBe('en');
    expect(loadConfig({ LANG: 'de_DE.UTF-8', LC_ALL: 'ja_JP.UTF-8' }, HOST).processLanguage).toBe('ja');
  });

  it('reports every invalid variable at once', () => {
    const load = () => loadConfig({ IAC_CODE_AGUI_PORT: 'x', IAC_CODE_AGUI_LOG_FORMAT: 'xml' }, HOST);
    expect(load).toThrow(/IAC_CODE_AGUI_PORT: .*\n.*IAC_CODE_AGUI_LOG_FORMAT: /);
  });

  it('freezes the configuration', () => {
    const config = loadConfig({}, HOST);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.upstream)).toBe(true);
  });

  it.each(['::', '::1', '0.0.0.0', '10.0.0.7', 'localhost', 'gateway.internal'])(
    'listens on the address or host name %j',
    (host) => {
      expect(loadConfig({ IAC_CODE_AGUI_HOST: host }, HOST).host).toBe(host);
    },
  );

  it.each(['http://0.0.0.0', '[::1]', 'host:8000', 'a b', '-gateway'])(
    'refuses the host %j, naming the setting only',
    (host) => {
      const load = () => loadConfig({ IAC_CODE_AGUI_HOST: host }, HOST);
      expect(load).toThrow(/^IAC_CODE_AGUI_HOST: must be an IP address/);
    },
  );

  it('runs no memory reclaimer unless a host asks (the standalone service does)', () => {
    expect(loadConfig({}, HOST).memoryReclaimer).toBe(false);
  });
});

describe('loadConfig: deprecated settings', () => {
  it('warns of none when none is set', () => {
    expect(loadConfig({}, HOST).settingWarnings).toEqual([]);
  });

  it.each([
    ['IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS', '0', (c: AppConfig) => c.memoryReclaimMs, 0, '--expose-gc'],
    [
      'IAC_CODE_AGUI_THREAD_CACHE_SIZE',
      '100',
      (c: AppConfig) => c.threadCacheSize,
      100,
      'IAC_CODE_AGUI_THREAD_CACHE_BYTES',
    ],
    [
      'IAC_CODE_AGUI_REATTACH_MAX_EVENTS',
      '100',
      (c: AppConfig) => c.reattach.maxEventsPerRun,
      100,
      'IAC_CODE_AGUI_REATTACH_MAX_BYTES',
    ],
  ])(
    '%s still works for this release, with one warning naming it and what replaces it',
    (name, value, read, expected, replacement) => {
      const config = loadConfig({ [name]: value }, HOST);
      expect(read(config)).toBe(expected);
      expect(config.settingWarnings).toEqual([expect.stringContaining(`${name} is deprecated`)]);
      expect(config.settingWarnings[0]).toContain(replacement);
    },
  );
});
