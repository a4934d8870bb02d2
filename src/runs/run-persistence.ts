/**
 * What a run must make durable while it streams (reference §6.6 "persist before announcing"). RunExecution
 * awaits these before it emits the events that reveal the value; a rejection ends the run with
 * STATE_PERSISTENCE_FAILED and the A2A task cancelled.
 */
export interface RunPersistence {
  /** The A2A task id the run's execution is bound to, if any (a resume starts with one). */
  readonly taskId: string | undefined;
  /** The thread's iac-code session id, if known (stable per A2A context). */
  readonly sessionId: string | undefined;
  recordTask(taskId: string): Promise<void>;
  recordSession(sessionId: string): Promise<void>;
  /** The run reached its end without a durable interrupt: the execution becomes terminal (best effort). */
  markTerminal(): Promise<void>;
  /** Called when the cancel extension cancels this execution while the run streams. */
  onCancelled(callback: () => void): void;
  /** Frees the thread's active-run slot. */
  release(): void;
}
