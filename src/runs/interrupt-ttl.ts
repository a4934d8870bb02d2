import { expiresAtFor } from '../interrupts/interrupt-expiry';
import type { RunContext } from './run-context';

/** `{expiresAt}` for interrupts created now (now + IAC_CODE_AGUI_INTERRUPT_TTL, docs/behaviour/interrupts.md#expiry), or `{}` when it is 0. */
export function interruptExpiresAt(ctx: RunContext): { expiresAt?: string } {
  const expiresAt = expiresAtFor(ctx.now(), ctx.deps.interruptTtlSeconds);
  return expiresAt === undefined ? {} : { expiresAt };
}
