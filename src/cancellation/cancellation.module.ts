import { Module } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { AuthModule } from '../auth/auth.module';
import { CommonModule } from '../common/common.module';
import { ThreadsModule } from '../threads/threads.module';
import { CancelController } from './cancel.controller';
import { CancelService } from './cancel.service';
import { InterruptExpiryTimer } from './interrupt-expiry-timer';

@Module({
  imports: [CommonModule, AuthModule, A2aModule, ThreadsModule],
  controllers: [CancelController],
  providers: [CancelService, InterruptExpiryTimer],
})
export class CancellationModule {}
