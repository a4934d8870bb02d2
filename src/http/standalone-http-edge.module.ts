import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { StandaloneHttpEdge } from './standalone-http-edge';

/**
 * Imported by the standalone service only (AppModule, after the gateway): it changes app-wide HTTP
 * behaviour, which a host application decides for itself.
 */
@Module({
  imports: [CommonModule],
  providers: [StandaloneHttpEdge],
})
export class StandaloneHttpEdgeModule {}
