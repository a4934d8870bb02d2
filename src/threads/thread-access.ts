import type { ThreadState } from './thread-state';

/**
 * The one answer to "may this caller act on this thread" (docs/behaviour/state.md#caller-binding), asked
 * by admission (`/`, `/invocations`, `/ws`), the cancel route and every route that reads a thread for a
 * caller. A thread opened by a principal is that principal's alone: another principal, or an anonymous
 * caller, is refused. A thread without a principal (opened anonymously, or written before principals
 * existed) keeps working for everyone, as it did. `principal`: the authenticated caller's, undefined
 * when anonymous.
 */
export function mayActOnThread(
  state: Pick<ThreadState, 'principal'>,
  principal: string | undefined,
): boolean {
  const owner = state.principal ?? null;
  return owner === null || owner === principal;
}
