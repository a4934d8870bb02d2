import type { INestApplicationContext, LoggerService } from '@nestjs/common';

/**
 * SIGTERM/SIGINT → `app.close()` (the graceful drain in RunService, then every shutdown hook) → exit 0.
 * Not Nest's `enableShutdownHooks()`: after its hooks it re-raises the signal, so the process would end as
 * killed (exit 143) instead of cleanly. A second signal during the drain takes the default action and ends
 * the process at once, which is what an operator pressing Ctrl-C twice expects.
 */
export function closeOnSignals(app: INestApplicationContext, logger: LoggerService): void {
  const close = (signal: NodeJS.Signals) => {
    logger.log({ msg: 'shutting down', signal });
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({
          msg: 'shutdown failed',
          error: error instanceof Error ? error.message : String(error),
        });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}
