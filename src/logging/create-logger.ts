import pino, { type Logger } from 'pino';
import { pinoOptions, type LogSettings } from './pino-options';
import { isPrettyAvailable } from './pretty-available';

/**
 * A pino logger for the time before the Nest app exists — a configuration error at boot — with the same
 * level, format and redaction as the app's logger (src/logging). Without settings (the configuration
 * itself failed) it logs JSON, or pretty lines on a terminal.
 */
export function createLogger(settings?: LogSettings): Logger {
  const effective = settings ?? { level: 'info', format: process.stdout.isTTY ? 'pretty' : 'json' };
  return pino(pinoOptions(effective, isPrettyAvailable()));
}
