import { Module } from '@nestjs/common';
import { CommonModule } from '../common/common.module';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerTokenVerifier } from './bearer-token-verifier';

@Module({
  imports: [CommonModule],
  providers: [BearerAuthGuard, BearerTokenVerifier],
  exports: [BearerAuthGuard, BearerTokenVerifier],
})
export class AuthModule {}
