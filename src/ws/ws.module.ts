import { Module, type DynamicModule } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CommonModule } from '../common/common.module';
import { RunRequestReader } from '../run-input/run-request-reader';
import { RunsModule } from '../runs/runs.module';
import { AgentCoreWsGateway, WS_PATH } from './agentcore-ws.gateway';

/** Where AgentCore's WebSocket route is served unless the host says otherwise. */
export const DEFAULT_WS_PATH = '/ws';

/**
 * The AgentCore WebSocket transport, imported only when the host keeps it (the `webSocket` extra of
 * `AguiGatewayModule.forRoot`). RunRequestReader is stateless, so this module has its own instance
 * rather than widening RunsModule's exports.
 */
@Module({})
export class WsModule {
  static at(path: string): DynamicModule {
    return {
      module: WsModule,
      imports: [CommonModule, AuthModule, RunsModule],
      providers: [AgentCoreWsGateway, RunRequestReader, { provide: WS_PATH, useValue: normalized(path) }],
    };
  }
}

function normalized(path: string): string {
  return `/${path.replace(/^\/+|\/+$/g, '')}`;
}
