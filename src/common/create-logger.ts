import { ConsoleLogger, type LogLevel } from '@nestjs/common';

const LEVELS: Record<string, LogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  verbose: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/**
 * Nest's console logger in JSON mode (one object per line, for containers) or colourful for a terminal.
 * Level and format come from configuration, read before the Nest app exists.
 */
export function createLogger(options: { level?: string; format?: 'json' | 'pretty' } = {}): ConsoleLogger {
  const format = options.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  return new ConsoleLogger({
    json: format === 'json',
    colors: format === 'pretty',
    logLevels: LEVELS[options.level ?? 'info'],
  });
}
