import 'reflect-metadata';
import { ConsoleLogger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { AppModule } from '../../src/app.module';
import { APP_CONFIG } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';

export interface RunningGateway {
  /** Base URL ending with '/'. */
  readonly url: string;
  readonly app: NestExpressApplication;
  /** Every log line the app wrote (JSON), for assertions such as "no secret is logged". */
  readonly logs: string[];
  close(): Promise<void>;
}

/** Captures the JSON log lines of one app instead of printing them. */
class CapturingLogger extends ConsoleLogger {
  constructor(private readonly sink: string[]) {
    super({ json: true, logLevels: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] });
  }
  protected override printMessages(messages: unknown[], context?: string, logLevel?: never): void {
    for (const message of messages)
      this.sink.push(
        this.stringifyJsonLogObject(
          this.getJsonLogObject(message, { context: context ?? '', logLevel: logLevel ?? 'log' } as never),
        ),
      );
  }
}

/**
 * A real gateway on 127.0.0.1 port 0 with the given environment (STYLE §2.8): the body parser off and
 * forceCloseConnections on, exactly like main.ts, so open SSE sockets cannot hang close().
 */
export async function startGateway(
  env: Record<string, string | undefined>,
  /** Replace providers of the real app (e.g. a failing thread store) before it is built. */
  configure: (builder: TestingModuleBuilder) => TestingModuleBuilder = (builder) => builder,
): Promise<RunningGateway> {
  // Each gateway gets its own state directory unless the test shares one on purpose (restart tests).
  const stateDir = env.IAC_CODE_AGUI_STATE_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'agui-state-'));
  const config = loadConfig(
    { HOME: os.homedir(), PATH: process.env.PATH, ...env, IAC_CODE_AGUI_STATE_DIR: stateDir },
    {
      cwd: process.cwd(),
      homeDir: os.homedir(),
      tmpDir: os.tmpdir(),
      pathDelimiter: path.delimiter,
      isTty: false,
    },
  );
  const moduleRef = await configure(
    Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(APP_CONFIG)
      .useValue(config),
  ).compile();
  const logs: string[] = [];
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    forceCloseConnections: true,
    logger: new CapturingLogger(logs),
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, app, logs, close: () => app.close() };
}
