import { Module } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { CommonModule } from '../common/common.module';
import { ThreadsModule } from '../threads/threads.module';
import { CancelService } from './cancel.service';
import { InterruptExpiryTimer } from './interrupt-expiry-timer';

@Module({
  imports: [CommonModule, A2aModule, ThreadsModule],
  providers: [CancelService, InterruptExpiryTimer],
  exports: [CancelService],
})
export class CancellationModule {}
