import type { UnwrappedFrame } from '../wire/unwrap-frame';
import type { PendingInterruptEntry } from './pending-interrupt';
import { mergePending, type MergedPending } from './merge-pending';

/** States after which a task waits for nothing: its snapshot is the whole truth (docs/behaviour/interrupts.md#resume-preparation step 5). */
const TERMINAL_STATES: ReadonlySet<string> = new Set([
  'failed',
  'rejected',
  'auth-required',
  'completed',
  'canceled',
  // A2A spells it `canceled`; tolerated like in events/run-outcome.ts.
  'cancelled',
]);

export interface ReconcilePendingArgs {
  /** The thread's pending entries as loaded, before this resume. */
  current: Readonly<Record<string, PendingInterruptEntry>>;
  /** The unwrapped `GetTask` answer of the resume preflight. */
  snapshot: Pick<UnwrappedFrame, 'state' | 'iacCode' | 'requiredInputs' | 'sidebandInputIds'>;
  /** `interruptId` of every resume entry, duplicates and unknown ids included. */
  resumeIds: readonly string[];
  boundTaskId: string;
  contextId: string;
  /** For entries the snapshot adds (Gen A TTL); undefined when the TTL is 0. */
  expiresAt?: string;
}

export interface ReconciledPending extends MergedPending {
  /** Whether the snapshot replaced the pending set (true) or was merged into it (false). */
  replaced: boolean;
}

/**
 * docs/behaviour/interrupts.md#resume-preparation step 5 (Gen B): the snapshot's inputs replace the pending set only when the task is
 * terminal, or when the resume answers none of the known pending ids and the snapshot explicitly carries
 * `input` or `pendingPermissions` (an empty list counts). Otherwise they are merged: an A2A kernel restarted
 * from a summary has no input metadata, and that absence must not erase a durable interrupt this resume is
 * answering. Inputs already answered are not filtered here — `planResume` drops them in step 7,
 * where a changed payload for one of them is refused.
 */
export function reconcilePending(args: ReconcilePendingArgs): ReconciledPending {
  const { snapshot } = args;
  const answersKnown = args.resumeIds.some((id) => Object.hasOwn(args.current, id));
  const isExplicit =
    snapshot.iacCode !== undefined &&
    ('input' in snapshot.iacCode || 'pendingPermissions' in snapshot.iacCode);
  const isTerminal = snapshot.state !== undefined && TERMINAL_STATES.has(snapshot.state);
  const replaced = isTerminal || (!answersKnown && isExplicit);
  const merged = mergePending(args.current, snapshot.requiredInputs, {
    boundTaskId: args.boundTaskId,
    contextId: args.contextId,
    sidebandIds: new Set(snapshot.sidebandInputIds),
    answeredIds: new Set(),
    ...(args.expiresAt === undefined ? {} : { expiresAt: args.expiresAt }),
    replace: replaced,
  });
  return { ...merged, replaced };
}
