import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { isIP } from 'node:net';
import * as path from 'node:path';
import type { AppConfig, HttpLimits } from './app-config';
import { deepFreeze } from './deep-freeze';
import { deprecatedSettingWarnings } from './deprecated-settings';
import { EnvironmentDto } from './environment.dto';
import { parseCorsOrigins } from './parse-cors-origins';

/** Facts about the host process that the defaults depend on; passed in so loadConfig stays pure. */
export interface HostFacts {
  readonly cwd: string;
  readonly homeDir: string;
  readonly tmpDir: string;
  readonly pathDelimiter: string;
  readonly isTty: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const MIB = 1024 * 1024;
const LANGUAGE_VARIABLES = ['LANGUAGE', 'LC_ALL', 'LC_MESSAGES', 'LANG'];

function expandHome(value: string, homeDir: string): string {
  return value === '~' || value.startsWith('~/') ? path.join(homeDir, value.slice(1)) : value;
}

function processLanguage(env: Record<string, string | undefined>): string {
  for (const name of LANGUAGE_VARIABLES) {
    const value = env[name]?.trim();
    if (value) return value.split(/[_.:-]/)[0].toLowerCase();
  }
  return 'en';
}

/**
 * Validates the environment and builds the typed configuration. Pure: no I/O, no process.env; a bad
 * value throws a ConfigError that names the variable (docs/architecture.md#decisions: validated at boot).
 */
export function loadConfig(env: Record<string, string | undefined>, host: HostFacts): AppConfig {
  // Unknown variables are ignored by validateSync; only the declared ones are checked and converted.
  const dto = plainToInstance(EnvironmentDto, env);
  const errors = validateSync(dto, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.property}: ${constraintsOf(e)}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const authToken = bearerTokenSetting(dto, 'IAC_CODE_AGUI_AUTH_TOKEN');
  const a2aToken = bearerTokenSetting(dto, 'IAC_CODE_AGUI_A2A_TOKEN');
  const redisUrl = redisUrlSetting(dto.IAC_CODE_AGUI_REDIS_URL);
  const a2aUrl = dto.IAC_CODE_AGUI_A2A_URL?.trim() || undefined;
  const allowRemote = dto.IAC_CODE_AGUI_A2A_ALLOW_REMOTE ?? false;
  if (a2aUrl && !allowRemote && !isLoopbackUrl(a2aUrl)) {
    throw new ConfigError(
      'IAC_CODE_AGUI_A2A_URL: the AG-UI adapter may connect only to a loopback A2A HTTP(S) URL ' +
        '(set IAC_CODE_AGUI_A2A_ALLOW_REMOTE=true to allow a remote kernel).',
    );
  }
  const store = dto.IAC_CODE_AGUI_STATE_STORE ?? 'file';
  if (store === 'redis' && !redisUrl) {
    throw new ConfigError('IAC_CODE_AGUI_REDIS_URL: required when IAC_CODE_AGUI_STATE_STORE=redis.');
  }
  const cors = parseCorsOrigins(dto.IAC_CODE_AGUI_CORS_ORIGINS);
  if ('problem' in cors) throw new ConfigError(`IAC_CODE_AGUI_CORS_ORIGINS: ${cors.problem}.`);
  const configDir = path.resolve(
    expandHome(dto.IAC_CODE_CONFIG_DIR ?? path.join(host.homeDir, '.iac-code'), host.homeDir),
  );
  const stateDir = path.resolve(
    expandHome(dto.IAC_CODE_AGUI_STATE_DIR ?? path.join(configDir, 'agui'), host.homeDir),
  );
  const rootsVariable = env.IAC_CODE_AGUI_ALLOWED_CWDS ?? env.IACCODE_A2A_ALLOWED_CWDS;
  const allowedCwdRoots =
    rootsVariable === undefined
      ? [host.cwd, host.tmpDir]
      : rootsVariable
          .split(host.pathDelimiter)
          .map((root) => root.trim())
          .filter(Boolean)
          .map((root) => path.resolve(expandHome(root, host.homeDir)));
  const http = httpLimits(dto);
  const upstreamMode = dto.IAC_CODE_AGUI_UPSTREAM ?? 'auto';
  const childEnvironment = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );

  const config: AppConfig = {
    host: hostSetting(dto.IAC_CODE_AGUI_HOST),
    port: dto.IAC_CODE_AGUI_PORT ?? 8000,
    authToken,
    upstream: {
      mode: upstreamMode,
      a2aUrl,
      a2aToken,
      allowRemote,
    },
    stateDir,
    configDir,
    homeDir: host.homeDir,
    allowedCwdRoots,
    heartbeatMs: Math.round((dto.IAC_CODE_AGUI_HEARTBEAT_SECONDS ?? 15) * 1000),
    interruptTtlSeconds: dto.IAC_CODE_AGUI_INTERRUPT_TTL ?? 540,
    cancelTimeoutMs: Math.round((dto.IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS ?? 10) * 1000),
    a2aIdleMs: Math.round((dto.IAC_CODE_AGUI_A2A_IDLE_SECONDS ?? 120) * 1000),
    a2aCallTimeoutMs: Math.round((dto.IAC_CODE_AGUI_A2A_CALL_TIMEOUT_SECONDS ?? 60) * 1000),
    // The real kernel took up to 23 s to start on a loaded machine: 60 s leaves room without hiding a hang.
    managedStartTimeoutMs: Math.round((dto.IAC_CODE_AGUI_MANAGED_START_SECONDS ?? 60) * 1000),
    threadCacheSize: dto.IAC_CODE_AGUI_THREAD_CACHE_SIZE ?? 2_000,
    wsMissedPongLimit: dto.IAC_CODE_AGUI_WS_MISSED_PONGS ?? 2,
    threadCacheBytes: dto.IAC_CODE_AGUI_THREAD_CACHE_BYTES ?? 32 * MIB,
    bodyBudgetBytes: dto.IAC_CODE_AGUI_BODY_BUDGET_BYTES ?? 64 * MIB,
    memoryReclaimer: false,
    memoryReclaimMs: Math.round((dto.IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS ?? 10) * 1000),
    http,
    genericClients: dto.IAC_CODE_AGUI_GENERIC_CLIENTS ?? false,
    genericWorkspaceRoot: path.resolve(
      expandHome(dto.IAC_CODE_AGUI_GENERIC_WORKSPACE_ROOT ?? path.join(stateDir, 'workspaces'), host.homeDir),
    ),
    sessionBinding: dto.IAC_CODE_AGUI_SESSION_BINDING ?? false,
    principalUserId: dto.IAC_CODE_AGUI_PRINCIPAL_USER_ID ?? 'keep',
    jwt: {
      principalClaim: dto.IAC_CODE_AGUI_JWT_PRINCIPAL_CLAIM ?? 'sub',
      issuer: dto.IAC_CODE_AGUI_JWT_ISSUER,
      audience: dto.IAC_CODE_AGUI_JWT_AUDIENCE,
      jwksUrl: dto.IAC_CODE_AGUI_JWT_JWKS_URL,
      resourceMetadataUrl: dto.IAC_CODE_AGUI_OAUTH_RESOURCE_METADATA_URL,
    },
    drainMs: Math.round((dto.IAC_CODE_AGUI_DRAIN_SECONDS ?? 30) * 1000),
    reattach: {
      graceMs: Math.round((dto.IAC_CODE_AGUI_REATTACH_SECONDS ?? 0) * 1000),
      maxEventsPerRun: dto.IAC_CODE_AGUI_REATTACH_MAX_EVENTS ?? 20_000,
      maxBytesPerRun: dto.IAC_CODE_AGUI_REATTACH_MAX_BYTES ?? 8 * MIB,
      maxBytesTotal: dto.IAC_CODE_AGUI_REATTACH_TOTAL_BYTES ?? 256 * MIB,
    },
    log: {
      level: dto.IAC_CODE_AGUI_LOG_LEVEL ?? 'info',
      format: dto.IAC_CODE_AGUI_LOG_FORMAT ?? (host.isTty ? 'pretty' : 'json'),
    },
    metricsPublic: dto.IAC_CODE_AGUI_METRICS_PUBLIC ?? false,
    tracing: dto.IAC_CODE_AGUI_TRACING ?? false,
    playground: dto.IAC_CODE_AGUI_PLAYGROUND ?? upstreamMode === 'demo',
    corsOrigins: cors.origins,
    store: {
      kind: store,
      redisUrl,
      keyPrefix: dto.IAC_CODE_AGUI_REDIS_KEY_PREFIX ?? 'agui:',
      tls: dto.IAC_CODE_AGUI_REDIS_TLS ?? false,
      ...(dto.IAC_CODE_AGUI_REDIS_LEASE_TTL_SECONDS === undefined
        ? {}
        : { leaseTtlMs: Math.round(dto.IAC_CODE_AGUI_REDIS_LEASE_TTL_SECONDS * 1000) }),
      allowVolatile: dto.IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE ?? false,
    },
    maxRequestBytes: 12 * MIB,
    maxCancelBytes: 64 * 1024,
    processLanguage: processLanguage(env),
    childEnvironment,
    settingWarnings: deprecatedSettingWarnings(env),
  };
  return deepFreeze(config);
}

/**
 * What class-validator says is wrong, never the value: a mistyped URL may be the right URL with its password
 * in it, a token may sit in the wrong variable. Its messages name the property and the rule (an `@IsIn`
 * list), never what was set.
 */
function constraintsOf(error: { constraints?: Record<string, string> }): string {
  return Object.values(error.constraints ?? {}).join('; ');
}

/** An RFC 1123 host name: letters, digits and hyphens in dot-separated labels. */
const HOST_NAME = /^(?=.{1,253}$)[a-z\d]([a-z\d-]{0,61}[a-z\d])?(\.[a-z\d]([a-z\d-]{0,61}[a-z\d])?)*$/i;

/**
 * An IP address or a host name. Anything else would reach `listen()`, whose error carries the value and a stack
 * trace: refused here, naming only the setting (a name that does not resolve is reported the same way, by
 * listenError).
 */
function hostSetting(value: string | undefined): string {
  if (value === undefined) return '127.0.0.1';
  if (isIP(value) !== 0 || HOST_NAME.test(value)) return value;
  throw new ConfigError(
    'IAC_CODE_AGUI_HOST: must be an IP address (127.0.0.1, 0.0.0.0, ::) or a host name of this machine.',
  );
}

/**
 * An empty token means "not set" (auth off; the Helm chart's default). A token that is only whitespace, or
 * has whitespace around it, can never be matched (HTTP trims header values), so it would lock every client
 * out, or the gateway out of its kernel: refused at boot, without echoing the value.
 */
function bearerTokenSetting(
  dto: EnvironmentDto,
  name: 'IAC_CODE_AGUI_AUTH_TOKEN' | 'IAC_CODE_AGUI_A2A_TOKEN',
): string | undefined {
  const value = dto[name];
  if (!value) return undefined;
  if (value.trim() === '')
    throw new ConfigError(`${name}: the token is blank; set a token or leave it empty.`);
  if (value.trim() !== value)
    throw new ConfigError(`${name}: the token begins or ends with whitespace; remove it.`);
  return value;
}

/**
 * Only Redis URLs: ioredis reads anything else as a socket path and puts the whole text (password
 * included) into every connection error. The message names the variable, never the value.
 */
function redisUrlSetting(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:')
    throw new ConfigError('IAC_CODE_AGUI_REDIS_URL: must be a redis:// or rediss:// URL.');
  return value;
}

function httpLimits(dto: EnvironmentDto): HttpLimits {
  const limits: HttpLimits = {
    headersTimeoutMs: Math.round((dto.IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS ?? 20) * 1000),
    requestTimeoutMs: Math.round((dto.IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS ?? 120) * 1000),
    bodyIdleMs: Math.round((dto.IAC_CODE_AGUI_HTTP_BODY_IDLE_SECONDS ?? 30) * 1000),
    keepAliveTimeoutMs: Math.round((dto.IAC_CODE_AGUI_HTTP_KEEP_ALIVE_SECONDS ?? 5) * 1000),
  };
  // Node's own rule: the headers are part of the request, so their deadline cannot be the later one.
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError(
      'IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS: must not exceed IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS.',
    );
  }
  return limits;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') && LOOPBACK_HOSTS.has(parsed.hostname)
    );
  } catch {
    return false;
  }
}

/** Secrets masked, for the one boot log line of the effective configuration. */
export function describeConfig(config: AppConfig): Record<string, unknown> {
  const mask = (value?: string) => (value ? '***' : undefined);
  return {
    host: config.host,
    port: config.port,
    auth: config.authToken ? 'bearer' : 'off',
    upstream: { ...config.upstream, a2aToken: mask(config.upstream.a2aToken) },
    stateDir: config.stateDir,
    allowedCwdRoots: config.allowedCwdRoots,
    heartbeatMs: config.heartbeatMs,
    interruptTtlSeconds: config.interruptTtlSeconds,
    cancelTimeoutMs: config.cancelTimeoutMs,
    reattach: config.reattach,
    a2aIdleMs: config.a2aIdleMs,
    a2aCallTimeoutMs: config.a2aCallTimeoutMs,
    managedStartTimeoutMs: config.managedStartTimeoutMs,
    threadCacheSize: config.threadCacheSize,
    threadCacheBytes: config.threadCacheBytes,
    bodyBudgetBytes: config.bodyBudgetBytes,
    wsMissedPongLimit: config.wsMissedPongLimit,
    memoryReclaimMs: config.memoryReclaimMs,
    http: config.http,
    store: { ...config.store, redisUrl: mask(config.store.redisUrl) },
    log: config.log,
    corsOrigins: config.corsOrigins,
  };
}
