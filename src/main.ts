import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { WsAdapter } from '@nestjs/platform-ws';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { ConfigError, describeConfig } from './config/load-config';
import { loadProcessConfig } from './config/process-config';
import { applyHttpLimits } from './common/apply-http-limits';
import { closeOnSignals } from './common/close-on-signals';
import { createLogger } from './common/create-logger';
import type { LogSettings } from './logging/pino-options';

/** The log settings once the configuration is known, for a failure after that point. */
let logSettings: LogSettings | undefined;

async function bootstrap(): Promise<void> {
  const config = loadProcessConfig();
  logSettings = config.log;
  // bodyParser off: the run and cancel routes read their own body after the guard, capped while streaming.
  // bufferLogs: what Nest logs while it builds the app waits for pino (useLogger below) instead of the console.
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    bufferLogs: true,
    forceCloseConnections: true,
  });
  app.useLogger(app.get(Logger));
  // AgentCore's /ws on the same port, with the plain `ws` server (not socket.io).
  app.useWebSocketAdapter(new WsAdapter(app));
  const logger = new NestLogger('Bootstrap');
  closeOnSignals(app, logger);
  logger.log({ msg: 'configuration', ...describeConfig(config) });
  applyHttpLimits(app.getHttpServer(), config.http);
  await app.listen(config.port, config.host);
  logger.log({ msg: 'listening', url: `http://${config.host}:${config.port}/` });
}

bootstrap().catch((error: unknown) => {
  // A configuration error is the user's to fix: say which variable, without a stack trace.
  const message =
    error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error);
  createLogger(logSettings).fatal({ context: 'Bootstrap' }, `agui-a2a-gateway did not start: ${message}`);
  process.exitCode = 1;
});
