import { Module } from '@nestjs/common';
import { ResponseValidator } from './response-validator';

/**
 * Interrupt building and resume planning are pure functions imported directly; the module only provides
 * the one stateful piece, the `ResponseValidator` with its compiled ajv schemas, as a singleton.
 */
@Module({
  providers: [ResponseValidator],
  exports: [ResponseValidator],
})
export class InterruptsModule {}
