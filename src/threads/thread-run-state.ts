import type { Logger } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { RunPersistence } from './run-persistence';
import { ThreadWriteConflictError } from './thread-cluster';
import { LeaseLostError } from './thread-coordination';
import type { ThreadRegistry } from './thread-registry';
import { withExecutionTerminal } from './terminal-execution';
import type { ThreadState } from './thread-state';

/** A compare-and-set lost to another replica is redone this many times in all (cluster mode). */
const WRITE_ATTEMPTS = 3;

/**
 * One run's writes to its thread (docs/behaviour/state.md#persist-before-announce, docs/behaviour/events.md#run-lifecycle step 7), each under the thread's lock and each
 * durable before the caller goes on. Only the run's own execution is ever changed: if the execution was
 * replaced meanwhile (a cancel made it terminal), the write is refused.
 */
export class ThreadRunState implements RunPersistence {
  private current: ThreadState;
  private lastWrite: Promise<unknown> = Promise.resolve();
  private released?: Promise<void>;

  constructor(
    private readonly registry: ThreadRegistry,
    admitted: ThreadState,
    private readonly runId: string,
    private readonly logger: Logger,
  ) {
    this.current = admitted;
  }

  get state(): ThreadState {
    return this.current;
  }

  /** Rejects LeaseLostError only: the turn is then another replica's to end (docs/behaviour/state.md#the-run-lease). */
  async markTerminal(last: (state: ThreadState) => ThreadState = (state) => state): Promise<void> {
    await this.writeTerminal(last, undefined, { rejectsLeaseLost: true });
  }

  /**
   * The client left: the execution becomes terminal and the slot is freed inside the same hold of the
   * thread's lock, so a next run queued on that lock (the client's retry) is admitted rather than refused
   * THREAD_BUSY — and, in cluster mode, the marking lands while the lease still fences it. The slot is
   * freed even if the marking fails.
   */
  async markTerminalAndRelease(): Promise<void> {
    await this.writeTerminal(
      (state) => state,
      () => this.releaseNow(),
      { rejectsLeaseLost: false },
    );
    await this.release();
  }

  private async writeTerminal(
    last: (state: ThreadState) => ThreadState,
    insideLock: (() => Promise<void>) | undefined,
    { rejectsLeaseLost }: { rejectsLeaseLost: boolean },
  ): Promise<void> {
    try {
      await this.write((current) => withExecutionTerminal(last(current)), insideLock);
    } catch (error) {
      if (rejectsLeaseLost && error instanceof LeaseLostError) throw error;
      // Best effort (docs/behaviour/state.md#persist-before-announce): the run already ended; a later turn rotates the execution anyway.
      this.logger.warn({
        msg: 'could not mark the execution terminal',
        threadId: this.current.threadId,
        executionId: this.current.execution.executionId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  onCancelled(callback: () => void): void {
    const ownExecution = this.current.execution.executionId;
    this.registry.onCancel(this.current.threadId, this.runId, (executionId) => {
      if (executionId === ownExecution) callback();
    });
  }

  ensureLease(): Promise<void> {
    return this.registry.ensureLease(this.current.threadId, this.runId);
  }

  onLeaseLost(callback: (lost: LeaseLostError) => void): void {
    this.registry.onLeaseLost(this.current.threadId, this.runId, callback);
  }

  /**
   * Frees the slot once the writes already started have landed (a disconnect's terminal marking must not
   * arrive after the lease is gone, or it would be fenced). Idempotent; never rejects.
   */
  release(): Promise<void> {
    this.released ??= this.lastWrite.then(() => this.registry.release(this.current.threadId, this.runId));
    return this.released;
  }

  /** Not through `released`: a release() already waiting for this very write would wait on itself. */
  private releaseNow(): Promise<void> {
    const released = this.registry.release(this.current.threadId, this.runId);
    this.released ??= released;
    return released;
  }

  /** `insideLock` runs after the commit, before the lock is let go. */
  write(change: (state: ThreadState) => ThreadState, insideLock?: () => Promise<void>): Promise<void> {
    const written = this.writeWithRetry(change, insideLock);
    this.lastWrite = written.catch(() => undefined);
    return written;
  }

  /**
   * Under the thread's lock, on the freshest document. In cluster mode a compare-and-set that another
   * replica (a cancel, an expiry) won is simply redone on what it wrote: `change` is a function of the state.
   */
  private async writeWithRetry(
    change: (state: ThreadState) => ThreadState,
    insideLock?: () => Promise<void>,
  ): Promise<void> {
    const { threadId, execution } = this.current;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.registry.withLock(threadId, async () => {
          const loaded = (await this.registry.load(threadId)) ?? this.current;
          if (loaded.execution.executionId !== execution.executionId) {
            throw new AguiError(ErrorCode.STATE_PERSISTENCE_FAILED, 'executionMappingNotCommitted');
          }
          const next = change(loaded);
          await this.registry.commit(next, { runId: this.runId });
          this.current = next;
          await insideLock?.();
        });
      } catch (error) {
        if (!(error instanceof ThreadWriteConflictError) || attempt >= WRITE_ATTEMPTS) throw error;
      }
    }
  }
}
