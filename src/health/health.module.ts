import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { A2aModule } from '../a2a/a2a.module';
import { CommonModule } from '../common/common.module';
import { ThreadsModule } from '../threads/threads.module';
import { HealthController } from './health.controller';
import { AgentCoreActivityHealthIndicator } from './agentcore-activity.health';
import { LifecycleHealthIndicator } from './lifecycle.health';
import { LivenessHealthIndicator } from './liveness.health';
import { SERVICE_IDENTITY, readServiceIdentity } from '../common/service-identity';

@Module({
  imports: [TerminusModule, CommonModule, A2aModule, ThreadsModule],
  controllers: [HealthController],
  providers: [
    LifecycleHealthIndicator,
    LivenessHealthIndicator,
    AgentCoreActivityHealthIndicator,
    { provide: SERVICE_IDENTITY, useFactory: readServiceIdentity },
  ],
})
export class HealthModule {}
