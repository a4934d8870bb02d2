import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { DynamicModule, Type } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import { Logger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { AppModule } from '../../src/app.module';
import { applyHttpLimits } from '../../src/http/apply-http-limits';
import { APP_CONFIG, type HttpLimits } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';
import { LOG_DESTINATION } from '../../src/logging/log-destination';
import { GatewayWsAdapter } from '../../src/ws/gateway-ws-adapter';
import { trackedClose } from './open-resources';

export interface RunningGateway {
  /** Base URL ending with '/'. */
  readonly url: string;
  readonly app: NestExpressApplication;
  /** Every log line the app wrote (JSON), for assertions such as "no secret is logged". */
  readonly logs: string[];
  close(): Promise<void>;
}

/** The `logs` arrays of the gateways that are open in this test file. */
const openLogSinks = new Set<string[]>();

/**
 * Captures JSON log lines instead of printing them. nestjs-pino keeps one pino instance per process (per
 * Jest test file), built with the first app's destination, so a line cannot tell which app wrote it: every
 * gateway open at that moment receives it. A test with one gateway sees exactly its own lines.
 */
const capturedLines: DestinationStream = {
  write(line: string): void {
    for (const sink of openLogSinks) sink.push(line.replace(/\n$/, ''));
  },
};

/**
 * A real gateway on 127.0.0.1 port 0 with the given environment (CONTRIBUTING.md): the body parser off and
 * forceCloseConnections on, exactly like main.ts, so open SSE sockets cannot hang close().
 */
export async function startGateway(
  env: Record<string, string | undefined>,
  /** Replace providers of the real app (e.g. a failing thread store) before it is built. */
  configure: (builder: TestingModuleBuilder) => TestingModuleBuilder = (builder) => builder,
): Promise<RunningGateway> {
  // Each gateway gets its own state directory unless the test shares one on purpose (restart tests).
  const stateDir = env.IAC_CODE_AGUI_STATE_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'agui-state-'));
  // The configuration is loadConfig's, so the gateway runs no memory reclaimer (a host must ask for one): its full
  // collections of Jest's heap of hundreds of MB would pause the loop 1.2–1.8 s each on a loaded machine
  // (docs/embedding.md). Its own specs and `npm run fuzz:memory` cover it.
  const config = loadConfig(
    {
      HOME: os.homedir(),
      PATH: process.env.PATH,
      ...env,
      IAC_CODE_AGUI_STATE_DIR: stateDir,
    },
    {
      cwd: process.cwd(),
      homeDir: os.homedir(),
      tmpDir: os.tmpdir(),
      pathDelimiter: path.delimiter,
      isTty: false,
    },
  );
  return startModule([AppModule], {
    configure: (builder) => configure(builder.overrideProvider(APP_CONFIG).useValue(config)),
    httpLimits: config.http,
  });
}

/**
 * Any module graph that contains the gateway (a host application, `AguiGatewayModule.forRoot(…)`), started
 * like startGateway with the logs captured. `bodyParser` defaults to off as in main.ts; a host app keeps it.
 */
export async function startModule(
  imports: (Type | DynamicModule)[],
  options: {
    configure?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
    bodyParser?: boolean;
    /** The standalone server's limits, applied as main.ts does; a host app keeps its own server's. */
    httpLimits?: HttpLimits;
    /** What a host sets on its app before listen() (e.g. `app.setGlobalPrefix('api')`). */
    prepare?: (app: NestExpressApplication) => void;
  } = {},
): Promise<RunningGateway> {
  const { configure = (builder) => builder, bodyParser = false, httpLimits, prepare } = options;
  const logs: string[] = [];
  openLogSinks.add(logs);
  const moduleRef = await configure(
    Test.createTestingModule({ imports }).overrideProvider(LOG_DESTINATION).useValue(capturedLines),
  ).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser,
    forceCloseConnections: true,
    bufferLogs: true,
  });
  // Registered before listen(), which starts the providers (a managed kernel child, Redis clients): a start
  // that fails halfway is closed here, one that fails in the caller's setup is closed with the test file.
  const close = trackedClose('gateway', async () => {
    await app.close();
    openLogSinks.delete(logs);
  });
  try {
    // As in main.ts: Nest's Logger calls go through pino, so `logs` holds exactly what production writes.
    app.useLogger(app.get(Logger));
    app.useWebSocketAdapter(new GatewayWsAdapter(app));
    if (httpLimits) applyHttpLimits(app.getHttpServer(), httpLimits);
    prepare?.(app);
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await close().catch(() => undefined); // the start error is the one worth reporting
    throw error;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, app, logs, close };
}
