/* eslint-disable no-restricted-properties -- the host is a process of its own and reads its environment; the rule guards the gateway's src/. */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { GatewayWsAdapter } from '../../../src/index';
// The demo agent is not part of the gateway's production build: a host that wants it registers it.
import '../../../src/demo-kernel/with-demo-kernel';
import { AGENT_ROUTE_PREFIX, HostAppModule } from './host-app.module';

/**
 * The host as a process: `node --import tsx examples/host-app/src/main.ts`. The gateway reads its usual
 * IAC_CODE_AGUI_* variables; the embedded demo agent unless IAC_CODE_AGUI_UPSTREAM says otherwise.
 */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(
    HostAppModule.register({
      auditLogPath: process.env.AUDIT_LOG_PATH ?? 'audit.jsonl',
      environment: { IAC_CODE_AGUI_UPSTREAM: 'demo', ...process.env },
    }),
    // The host keeps Nest's body parser: the gateway's run route uses the parsed body when there is one.
    { forceCloseConnections: true },
  );
  app.useWebSocketAdapter(new GatewayWsAdapter(app)); // the gateway's AgentCore /ws
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  await app.listen(port, '127.0.0.1');
  console.log(
    `host app on http://127.0.0.1:${port}/host/echo, AG-UI on http://127.0.0.1:${port}${AGENT_ROUTE_PREFIX}`,
  );
}

void bootstrap();
