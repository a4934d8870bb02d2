import type { EventFrame } from '../wire/sse-frame';
import type { FrameSink } from './frame-sink';
import type { RunFollower } from './follow-run';
import type { RetainedRunIdentity } from './retained-run';

/** A retained run another replica runs, as the shared log describes it. */
export interface SharedRun {
  readonly identity: RetainedRunIdentity;
  /** Sequence of the oldest event the shared log still holds (the next one when it holds none). */
  readonly firstHeld: number;
  readonly lastSequence: number;
}

/**
 * The retained runs' logs shared by every replica (Redis mode, docs/behaviour/reattach.md#on-any-replica):
 * the replica that runs a kernel stream writes its run's frames; any replica reads them, so a reattach may
 * land on a replica that does not run it. Writes are best effort (logged, never thrown): the run itself
 * never waits for them.
 */
export interface SharedRunLog {
  started(identity: RetainedRunIdentity): void;
  appended(identity: RetainedRunIdentity, sequence: number, frame: EventFrame): void;
  /** The run's events are over: the log stays readable for the window. */
  ended(identity: RetainedRunIdentity, lastSequence: number): void;
  /** The run was abandoned: its log goes now. */
  dropped(identity: RetainedRunIdentity): void;
  /** The shared run of an execution or a thread, if any replica retains one. */
  find(
    target: { readonly executionId: string } | { readonly threadId: string },
  ): Promise<SharedRun | undefined>;
  /**
   * How long the run's window still has because of readers on other replicas, in ms (0: none): one that
   * follows now keeps it open; one that left, for the window after it left.
   */
  remoteWindowLeftMs(runToken: string): Promise<number>;
  /** Follows a shared run from after `sequence` into the sink, to its end; counts as one of its readers. */
  follow(run: SharedRun, sequence: number, sink: FrameSink): RunFollower;
}

export const SHARED_RUN_LOG = Symbol('SHARED_RUN_LOG');
