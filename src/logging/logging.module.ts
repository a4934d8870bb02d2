import { randomUUID } from 'node:crypto';
import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { LoggerModule, type Params } from 'nestjs-pino';
import type { LogSettings } from './pino-options';
import type { DestinationStream } from 'pino';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { LOG_DESTINATION } from './log-destination';
import { pinoHttpOptions } from './pino-http-options';
import { isPrettyAvailable } from './pretty-available';

/**
 * nestjs-pino's `pinoHttp` parameter: the request logger's settings, and the destination when one is given
 * (pretty output only on standard output). The first use in a process builds the one pino-http instance.
 */
export function pinoHttpParams(
  settings: LogSettings,
  destination: DestinationStream | null,
): Params['pinoHttp'] {
  const options = pinoHttpOptions(settings, {
    prettyAvailable: destination === null && isPrettyAvailable(),
    generateId: randomUUID,
  });
  return destination ? [options, destination] : options;
}

/**
 * Structured logs through nestjs-pino : JSON lines (or pino-pretty on a terminal), one line per
 * request, secrets redacted by path. The Nest `Logger` calls in the code reach pino once main.ts calls
 * `app.useLogger(app.get(Logger))`. nestjs-pino keeps one pino-http instance per process: the first app
 * created in a process fixes the level, format and destination of every later one.
 */
@Module({})
export class LoggingModule {
  /** `controllers`: the gateway's own; their routes get request logs, a host application's never do. */
  static forRoutes(controllers: readonly Type[]): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          providers: [{ provide: LOG_DESTINATION, useFactory: () => null }],
          inject: [APP_CONFIG, LOG_DESTINATION],
          useFactory: (config: AppConfig, destination: DestinationStream | null): Params => {
            return {
              pinoHttp: pinoHttpParams(config.log, destination),
              // Only the gateway's own routes (with any prefix): a host application's routes are untouched .
              forRoutes: [...controllers],
            };
          },
        }),
      ],
    };
  }
}
