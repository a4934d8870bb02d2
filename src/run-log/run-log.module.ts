import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { ReattachService } from './reattach.service';
import { RunLogRegistry } from './run-log-registry';

/** Runs that survive their connection (docs/behaviour/reattach.md): their event logs and the reattach check. */
@Module({
  imports: [CommonModule],
  providers: [RunLogRegistry, ReattachService],
  exports: [RunLogRegistry, ReattachService],
})
export class RunLogModule {}
