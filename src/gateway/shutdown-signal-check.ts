import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';

/**
 * The drain (docs/embedding.md#shutdown) runs in Nest's shutdown hooks, which only a signal handler starts:
 * without `app.enableShutdownHooks()` (or the standalone service's own handler) a SIGTERM ends the
 * process at once and open runs get no terminal event. Nothing can be fixed from inside the module, so
 * it says so once at boot, when no SIGTERM handler is installed.
 */
@Injectable()
export class ShutdownSignalCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('AguiGatewayModule');

  onApplicationBootstrap(): void {
    if (process.listenerCount('SIGTERM') > 0) return;
    this.logger.warn({
      msg: 'no SIGTERM handler: call app.enableShutdownHooks() before listen(), or a stop cuts open runs without a terminal event',
    });
  }
}
