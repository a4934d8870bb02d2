import { expiresAtFor } from '../interrupts/interrupt-expiry';
import type { RunContext } from './run-context';

/** `{expiresAt}` for interrupts created now (seed expiry: now + IAC_CODE_AGUI_INTERRUPT_TTL), or `{}` when it is 0. */
export function interruptExpiresAt(ctx: RunContext): { expiresAt?: string } {
  const expiresAt = expiresAtFor(ctx.now(), ctx.deps.interruptTtlSeconds);
  return expiresAt === undefined ? {} : { expiresAt };
}
