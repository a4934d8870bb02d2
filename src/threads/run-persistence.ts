import type { LeaseLostError } from './thread-coordination';
import type { ThreadState } from './thread-state';

/**
 * What a run makes durable while it streams (docs/behaviour/state.md#persist-before-announce "persist before announcing"). The run awaits
 * a write before it emits the events that reveal its value; a rejection ends the run with
 * STATE_PERSISTENCE_FAILED and the A2A task cancelled.
 */
export interface RunPersistence {
  /** The thread as last written by (or for) this run. */
  readonly state: ThreadState;
  /** Applies `change` to the current thread state under the thread's lock and persists it. */
  write(change: (state: ThreadState) => ThreadState): Promise<void>;
  /**
   * The run reached its end without a durable interrupt: the execution becomes terminal (best effort), with
   * `last` applied first (the run's final Pipeline cursor, open steps and text digests, docs/behaviour/events.md#run-lifecycle step 7).
   * Rejects LeaseLostError when the write was fenced: another replica holds the turn now.
   */
  markTerminal(last?: (state: ThreadState) => ThreadState): Promise<void>;
  /**
   * The run's client left: terminal as above (best effort), and the active-run slot freed in the same step,
   * before anything is asked of A2A, so the client's next run is admitted at once. Never rejects.
   */
  markTerminalAndRelease(): Promise<void>;
  /** Called when the cancel extension cancels this execution while the run streams. */
  onCancelled(callback: () => void): void;
  /**
   * Called right before each kernel side effect of the run (an answer, CancelTask): rejects LeaseLostError
   * (THREAD_TAKEN_OVER) once another replica may hold the thread (docs/behaviour/state.md#the-run-lease).
   */
  ensureLease(): Promise<void>;
  /** Called once when the run's lease is found lost: the run stops without acting on the kernel. */
  onLeaseLost(callback: (lost: LeaseLostError) => void): void;
  /** Frees the thread's active-run slot (on every replica: a lease in Redis). Idempotent; never rejects. */
  release(): Promise<void>;
}

/** The A2A ids one frame revealed for the first time; both go into the same write. */
export interface LearnedIdentities {
  taskId?: string;
  sessionId?: string;
}

export function withLearnedIdentities(state: ThreadState, learned: LearnedIdentities): ThreadState {
  const { taskId, sessionId } = learned;
  return {
    ...state,
    ...(sessionId ? { iacCodeSessionId: sessionId } : {}),
    ...(taskId ? { execution: { ...state.execution, taskId } } : {}),
  };
}
