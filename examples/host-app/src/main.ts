import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { GatewayWsAdapter } from 'agui-a2a-gateway';
import { AGENT_ROUTE_PREFIX, HostAppModule } from './host-app.module';

/**
 * The host as a process: `npm run build && npm start`. The gateway reads its usual IAC_CODE_AGUI_* variables
 * from the environment (the kernel's URL among them); PORT and AUDIT_LOG_PATH are the host's own.
 */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(
    HostAppModule.register({ auditLogPath: process.env.AUDIT_LOG_PATH ?? 'audit.jsonl' }),
    // Nest's body parser stays on for the host's routes; the gateway's routes read their own body.
    { forceCloseConnections: true },
  );
  app.useWebSocketAdapter(new GatewayWsAdapter(app)); // the gateway's AgentCore WebSocket
  app.enableShutdownHooks(); // the gateway drains open runs on SIGTERM
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  console.log(`listening on ${await app.getUrl()}; AG-UI under ${AGENT_ROUTE_PREFIX}`);
}

void bootstrap();
