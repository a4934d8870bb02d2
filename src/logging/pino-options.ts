import type { LoggerOptions } from 'pino';
import { REDACTED, REDACTED_PATHS } from './redacted-paths';
import { truncateLogIds } from './truncate-log-ids';

export interface LogSettings {
  /** IAC_CODE_AGUI_LOG_LEVEL: Nest's names, `verbose` included. */
  readonly level: string;
  /** IAC_CODE_AGUI_LOG_FORMAT: `json` for containers, `pretty` for a terminal. */
  readonly format: 'json' | 'pretty';
}

/** pino has no `verbose`; Nest's verbose is pino's trace (nestjs-pino maps `Logger.verbose` to trace). */
export function pinoLevel(level: string): string {
  return level === 'verbose' ? 'trace' : level;
}

/**
 * pino settings shared by the request logger and the boot logger. Pure. `prettyAvailable` says whether
 * pino-pretty can be loaded: it is a development dependency, so a production image asked for `pretty`
 * falls back to JSON rather than failing to start.
 */
export function pinoOptions(settings: LogSettings, prettyAvailable: boolean): LoggerOptions {
  const pretty = settings.format === 'pretty' && prettyAvailable;
  return {
    name: 'agui-a2a-gateway',
    level: pinoLevel(settings.level),
    redact: { paths: [...REDACTED_PATHS], censor: REDACTED },
    formatters: { log: truncateLogIds },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' },
          },
        }
      : {}),
  };
}
