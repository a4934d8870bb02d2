// First: the modules below are then read from Node's compile cache.
import './common/enable-compile-cache';
import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { IacCodeStartError } from './a2a/managed/iac-code-start-error';
import { AppModule } from './app.module';
import { ConfigError, describeConfig } from './config/load-config';
import { listenError } from './config/listen-error';
import { loadProcessConfig } from './config/process-config';
import { applyHttpLimits } from './http/apply-http-limits';
import { closeOnSignals } from './common/close-on-signals';
import { createLogger } from './logging/create-logger';
import { httpUrl } from './common/http-url';
import { createBootLogger } from './logging/boot-logger';
import { GatewayWsAdapter } from './ws/gateway-ws-adapter';

/** The app's logger once the configuration is known, so a later failure is one more line in the same stream. */
let bootLogger: Logger | undefined;
/** The app once Nest has built it, so a later failure (the port is taken) can still stop what it started. */
let startedApp: NestExpressApplication | undefined;

async function bootstrap(): Promise<void> {
  const config = loadProcessConfig();
  bootLogger = createBootLogger(config.log);
  // bodyParser off: the run and cancel routes read their own body after the guard, capped while streaming.
  // logger: what Nest logs while it builds the app (a failed start included) goes through pino at once.
  // abortOnError off: a failed start rejects here (Nest would exit at once), so the catch below handles it.
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    forceCloseConnections: true,
    logger: bootLogger,
    abortOnError: false,
  });
  startedApp = app;
  app.useLogger(app.get(Logger));
  // AgentCore's /ws on the same port, with the plain `ws` server (not socket.io).
  app.useWebSocketAdapter(new GatewayWsAdapter(app));
  const logger = new NestLogger('Bootstrap');
  closeOnSignals(app, logger);
  logger.log({ msg: 'configuration', ...describeConfig(config) });
  applyHttpLimits(app.getHttpServer(), config.http);
  await app.listen(config.port, config.host).catch((error: unknown) => {
    throw listenError(error);
  });
  logger.log({ msg: 'listening', url: httpUrl(config.host, config.port) });
}

bootstrap().catch(async (error: unknown) => {
  // A bad setting or a kernel that did not start is the user's to fix: say what, without a stack trace.
  const isExpected = error instanceof ConfigError || error instanceof IacCodeStartError;
  const message = isExpected ? error.message : error instanceof Error ? error.stack : String(error);
  const line = `agui-a2a-gateway did not start: ${message}`;
  if (bootLogger) bootLogger.fatal(line, 'Bootstrap');
  else createLogger().fatal({ context: 'Bootstrap' }, line);
  // Stops what did start (the managed kernel, the Redis client), then exits: a start that failed inside Nest's
  // build leaves no app to close, and whatever it had opened must not keep the process alive.
  await startedApp?.close().catch(() => undefined);
  process.exit(1);
});
