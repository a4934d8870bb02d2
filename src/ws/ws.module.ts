import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CommonModule } from '../common/common.module';
import { RunRequestReader } from '../run-input/run-request-reader';
import { RunsModule } from '../runs/runs.module';
import { AgentCoreWsGateway } from './agentcore-ws.gateway';

/**
 * The AgentCore WebSocket transport. RunRequestReader is stateless, so this module has its own instance
 * rather than widening RunsModule's exports.
 */
@Module({
  imports: [CommonModule, AuthModule, RunsModule],
  providers: [AgentCoreWsGateway, RunRequestReader],
})
export class WsModule {}
