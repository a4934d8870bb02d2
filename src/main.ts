import 'reflect-metadata';
import { ConsoleLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { ConfigError, describeConfig } from './config/load-config';
import { loadProcessConfig } from './config/process-config';
import { createLogger } from './common/create-logger';

async function bootstrap(): Promise<void> {
  const config = loadProcessConfig();
  const logger = createLogger(config.log);
  // bodyParser off: the run and cancel routes read their own body after the guard, capped while streaming.
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    logger,
    forceCloseConnections: true,
  });
  app.enableShutdownHooks();
  logger.log({ msg: 'configuration', ...describeConfig(config) }, 'Bootstrap');
  await app.listen(config.port, config.host);
  logger.log({ msg: 'listening', url: `http://${config.host}:${config.port}/` }, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  // A configuration error is the user's to fix: say which variable, without a stack trace.
  const message =
    error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error);
  new ConsoleLogger('Bootstrap').fatal(`agui-a2a-gateway did not start: ${message}`);
  process.exitCode = 1;
});
