import type { PrincipalUserIdRule } from './app-config';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
const toNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off', ''];
const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  return TRUE.includes(v) ? true : FALSE.includes(v) ? false : value;
};

/**
 * Every environment variable the service reads, declared once with its validation (docs/architecture.md#decisions).
 * Property names are the variable names, so a validation error names the variable a user must fix.
 */
export class EnvironmentDto {
  @IsOptional() @IsString() @MinLength(1) IAC_CODE_AGUI_HOST?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535) IAC_CODE_AGUI_PORT?: number;
  @IsOptional() @IsString() IAC_CODE_AGUI_AUTH_TOKEN?: string;
  @IsOptional() @IsIn(['auto', 'demo']) IAC_CODE_AGUI_UPSTREAM?: 'auto' | 'demo';
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  IAC_CODE_AGUI_A2A_URL?: string;
  @IsOptional() @IsString() IAC_CODE_AGUI_A2A_TOKEN?: string;
  @IsOptional() @Transform(toBool) @IsBoolean() IAC_CODE_AGUI_A2A_ALLOW_REMOTE?: boolean;
  @IsOptional() @IsString() @MinLength(1) IAC_CODE_AGUI_STATE_DIR?: string;
  @IsOptional() @IsString() @MinLength(1) IAC_CODE_CONFIG_DIR?: string;
  @IsOptional() @IsString() IAC_CODE_AGUI_ALLOWED_CWDS?: string;
  @IsOptional() @IsString() IACCODE_A2A_ALLOWED_CWDS?: string;
  @IsOptional() @Transform(toNumber) @Min(0.001) @Max(3600) IAC_CODE_AGUI_HEARTBEAT_SECONDS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) IAC_CODE_AGUI_INTERRUPT_TTL?: number;
  @IsOptional() @Transform(toNumber) @Min(0.001) @Max(600) IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS?: number;
  @IsOptional() @Transform(toNumber) @Min(0.001) @Max(3600) IAC_CODE_AGUI_A2A_IDLE_SECONDS?: number;
  @IsOptional() @Transform(toNumber) @Min(0.001) @Max(3600) IAC_CODE_AGUI_A2A_CALL_TIMEOUT_SECONDS?: number;
  @IsOptional() @Transform(toNumber) @Min(0.001) @Max(3600) IAC_CODE_AGUI_MANAGED_START_SECONDS?: number;
  /** Deprecated (deprecated-settings.ts); the count is otherwise fixed at 2,000. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(10_000_000) IAC_CODE_AGUI_THREAD_CACHE_SIZE?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(1000) IAC_CODE_AGUI_WS_MISSED_PONGS?: number;
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(65_536)
  @Max(2 ** 40)
  IAC_CODE_AGUI_THREAD_CACHE_BYTES?: number;
  /** At least one body of the largest size (12 MiB). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(12 * 1024 * 1024)
  @Max(2 ** 40)
  IAC_CODE_AGUI_BODY_BUDGET_BYTES?: number;
  /** Deprecated (deprecated-settings.ts): 0 turns the reclaimer off; otherwise at least a second between its looks. */
  @IsOptional()
  @Transform(toNumber)
  @ValidateIf(
    (dto: { IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS?: number }) =>
      dto.IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS !== 0,
  )
  @Min(1)
  @Max(3600)
  IAC_CODE_AGUI_MEMORY_RECLAIM_SECONDS?: number;
  @IsOptional()
  @Transform(toNumber)
  @Min(0.001)
  @Max(3600)
  IAC_CODE_AGUI_HTTP_HEADERS_TIMEOUT_SECONDS?: number;
  @IsOptional() @Transform(toNumber) @Min(0) @Max(86400) IAC_CODE_AGUI_HTTP_REQUEST_TIMEOUT_SECONDS?: number;
  @IsOptional() @Transform(toNumber) @Min(0.001) @Max(3600) IAC_CODE_AGUI_HTTP_BODY_IDLE_SECONDS?: number;
  @IsOptional() @Transform(toNumber) @Min(0) @Max(3600) IAC_CODE_AGUI_HTTP_KEEP_ALIVE_SECONDS?: number;
  @IsOptional() @Transform(toBool) @IsBoolean() IAC_CODE_AGUI_GENERIC_CLIENTS?: boolean;
  @IsOptional() @IsString() @MinLength(1) IAC_CODE_AGUI_GENERIC_WORKSPACE_ROOT?: string;
  @IsOptional() @Transform(toBool) @IsBoolean() IAC_CODE_AGUI_SESSION_BINDING?: boolean;
  @IsOptional() @IsString() @MinLength(1) IAC_CODE_AGUI_JWT_ISSUER?: string;
  @IsOptional() @IsString() @MinLength(1) IAC_CODE_AGUI_JWT_AUDIENCE?: string;
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true }) IAC_CODE_AGUI_JWT_JWKS_URL?: string;
  @IsOptional() @IsString() @MinLength(1) IAC_CODE_AGUI_JWT_PRINCIPAL_CLAIM?: string;
  @IsOptional() @IsIn(['keep', 'fill', 'match']) IAC_CODE_AGUI_PRINCIPAL_USER_ID?: PrincipalUserIdRule;
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  IAC_CODE_AGUI_OAUTH_RESOURCE_METADATA_URL?: string;
  @IsOptional() @Transform(toNumber) @Min(0) @Max(3600) IAC_CODE_AGUI_DRAIN_SECONDS?: number;
  @IsOptional() @Transform(toNumber) @Min(0) @Max(3600) IAC_CODE_AGUI_REATTACH_SECONDS?: number;
  /** Deprecated (deprecated-settings.ts); the count is otherwise fixed at 20,000. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  IAC_CODE_AGUI_REATTACH_MAX_EVENTS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1024) IAC_CODE_AGUI_REATTACH_MAX_BYTES?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1024) IAC_CODE_AGUI_REATTACH_TOTAL_BYTES?: number;
  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'verbose', 'trace'])
  IAC_CODE_AGUI_LOG_LEVEL?: string;
  @IsOptional() @IsIn(['json', 'pretty']) IAC_CODE_AGUI_LOG_FORMAT?: 'json' | 'pretty';
  @IsOptional() @Transform(toBool) @IsBoolean() IAC_CODE_AGUI_METRICS_PUBLIC?: boolean;
  @IsOptional() @Transform(toBool) @IsBoolean() IAC_CODE_AGUI_TRACING?: boolean;
  @IsOptional() @Transform(toBool) @IsBoolean() IAC_CODE_AGUI_PLAYGROUND?: boolean;
  @IsOptional() @IsIn(['file', 'redis']) IAC_CODE_AGUI_STATE_STORE?: 'file' | 'redis';
  @IsOptional() @IsString() IAC_CODE_AGUI_REDIS_URL?: string;
  @IsOptional() @IsString() IAC_CODE_AGUI_REDIS_KEY_PREFIX?: string;
  @IsOptional() @Transform(toBool) @IsBoolean() IAC_CODE_AGUI_REDIS_TLS?: boolean;
  @IsOptional() @Transform(toNumber) @Min(0.3) @Max(3600) IAC_CODE_AGUI_REDIS_LEASE_TTL_SECONDS?: number;
  @IsOptional() @Transform(toBool) @IsBoolean() IAC_CODE_AGUI_REDIS_ALLOW_VOLATILE?: boolean;
  /** Checked entry by entry in `parseCorsOrigins`. */
  @IsOptional() @IsString() IAC_CODE_AGUI_CORS_ORIGINS?: string;
}
