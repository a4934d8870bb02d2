/** The typed, frozen configuration tree every module injects (token APP_CONFIG). */
export const APP_CONFIG = Symbol('APP_CONFIG');

export type UpstreamMode = 'auto' | 'demo';

export interface HttpLimits {
  /** All request headers must arrive within this (slowloris). */
  readonly headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this; 0 = no limit. Never cuts a response. */
  readonly requestTimeoutMs: number;
  /** A request body that delivers no byte for this long is refused (408) and its connection closed. */
  readonly bodyIdleMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
}

export interface ReattachLimits {
  /** How long a run whose last reader left keeps running before it is cancelled; 0 = cancel at once. */
  readonly graceMs: number;
  /** Events and bytes one run's event log holds. */
  readonly maxEventsPerRun: number;
  readonly maxBytesPerRun: number;
  /** Bytes all event logs of the process hold together. */
  readonly maxBytesTotal: number;
}

/**
 * docs/behaviour/state.md#caller-binding: `keep` leaves `userId` as the client wrote it (the principal binds
 * the thread on its own); `fill` replaces it with the principal; `match` refuses a `userId` other than the
 * principal and fills an omitted one. Runs of a caller without a principal are never changed.
 */
export type PrincipalUserIdRule = 'keep' | 'fill' | 'match';

export interface AppConfig {
  readonly host: string;
  readonly port: number;
  /** Bearer token for the AG-UI routes; undefined = auth off. */
  readonly authToken?: string;
  readonly upstream: {
    readonly mode: UpstreamMode;
    readonly a2aUrl?: string;
    readonly a2aToken?: string;
    readonly allowRemote: boolean;
  };
  readonly stateDir: string;
  readonly configDir: string;
  /** The user's home directory, for `~` in workspace paths. */
  readonly homeDir: string;
  /** Allowed workspace roots as configured (resolution and existence checks happen at use time). */
  readonly allowedCwdRoots: readonly string[];
  readonly heartbeatMs: number;
  readonly interruptTtlSeconds: number;
  readonly cancelTimeoutMs: number;
  /** A kernel stream that delivers no byte at all (pings count) for this long ends the run. */
  readonly a2aIdleMs: number;
  /** Bound on every unary kernel call (CancelTask keeps its shorter `cancelTimeoutMs`). */
  readonly a2aCallTimeoutMs: number;
  /** How long a managed `iac-code a2a` child may take to answer `/health` (IAC_CODE_AGUI_MANAGED_START_SECONDS). */
  readonly managedStartTimeoutMs: number;
  /** Idle threads kept in memory (LRU); threads in use are never evicted. */
  readonly threadCacheSize: number;
  /** Bound on the idle threads' total size (their JSON length), next to the count bound. */
  readonly threadCacheBytes: number;
  /** Bytes of request bodies being read at once, process-wide; over it a new body is refused (SERVER_BUSY). */
  readonly bodyBudgetBytes: number;
  /** `/ws` heartbeats a peer may leave unanswered before it is closed (1001) and its run left. */
  readonly wsMissedPongLimit: number;
  /**
   * Run the memory reclaimer (docs/behaviour/bounds.md#memory-reclaimer): the standalone service asks for it, a
   * host only if it sets this. It also needs `node --expose-gc` on the command line; without it there is none.
   */
  readonly memoryReclaimer: boolean;
  /**
   * How often the reclaimer looks for a quiet process whose heap grew: 10 s, fixed; 0 = no reclaimer (only the
   * deprecated IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS changes it, for one release).
   */
  readonly memoryReclaimMs: number;
  /** Limits of the standalone HTTP server (main.ts); `bodyIdleMs` also bounds the routes' own body reads. */
  readonly http: HttpLimits;
  readonly genericClients: boolean;
  readonly genericWorkspaceRoot: string;
  readonly sessionBinding: boolean;
  /** How `forwardedProps.iacCode.userId` relates to an authenticated caller's principal (IAC_CODE_AGUI_PRINCIPAL_USER_ID). */
  readonly principalUserId: PrincipalUserIdRule;
  readonly jwt: {
    readonly issuer?: string;
    readonly audience?: string;
    readonly jwksUrl?: string;
    readonly resourceMetadataUrl?: string;
    /** The verified token's claim that names the caller (IAC_CODE_AGUI_JWT_PRINCIPAL_CLAIM, default `sub`). */
    readonly principalClaim: string;
  };
  readonly drainMs: number;
  /** Runs that outlive their client's connection (docs/behaviour/reattach.md); `graceMs` 0 = off. */
  readonly reattach: ReattachLimits;
  readonly log: { readonly level: string; readonly format: 'json' | 'pretty' };
  readonly metricsPublic: boolean;
  readonly tracing: boolean;
  readonly playground: boolean;
  /** Origins allowed to call the gateway's HTTP routes from a browser; `['*']` = any; empty = no CORS. */
  readonly corsOrigins: readonly string[];
  readonly store: {
    readonly kind: 'file' | 'redis';
    readonly redisUrl?: string;
    readonly keyPrefix: string;
    readonly tls: boolean;
    /** IAC_CODE_AGUI_REDIS_LEASE_TTL_SECONDS in ms; unset = the Redis store's default (15 s). */
    readonly leaseTtlMs?: number;
    /** IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE: start on a Redis without AOF or with an evicting policy. */
    readonly allowVolatile: boolean;
  };
  /** Request body caps (docs/behaviour/http.md#request-checks and docs/behaviour/cancel.md#cancel-route). */
  readonly maxRequestBytes: number;
  readonly maxCancelBytes: number;
  /** Language of messages when a request names none (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). */
  readonly processLanguage: string;
  /** The environment a managed `iac-code a2a` child inherits (docs/behaviour/a2a.md#managed-child). */
  readonly childEnvironment: Readonly<Record<string, string>>;
  /** What boot logs once as warnings: deprecated settings that were set, each with what replaces it. */
  readonly settingWarnings: readonly string[];
}
