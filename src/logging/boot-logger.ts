import { Logger, PinoLogger, type Params } from 'nestjs-pino';
import { pinoHttpParams } from './logging.module';
import type { LogSettings } from './pino-options';

/**
 * The Nest logger for the time while Nest builds the app, before `app.useLogger(app.get(Logger))`: the same
 * nestjs-pino logger on the same process-wide pino-http instance (built here first, with the settings the
 * LoggingModule uses), so what Nest logs at boot, and a start that fails (a managed kernel that does not come
 * up), is written in the configured format instead of Nest's coloured console text.
 */
export function createBootLogger(settings: LogSettings): Logger {
  const params: Params = { pinoHttp: pinoHttpParams(settings, null) };
  return new Logger(new PinoLogger(params), params);
}
