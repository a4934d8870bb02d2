import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { A2A_GATEWAY, type A2aGateway } from '../a2a/a2a-gateway';
import { CLOCK, type Clock } from '../common/clock';
import { earliestExpiry, expiredIds } from '../interrupts/interrupt-expiry';
import { ThreadRegistry } from '../threads/thread-registry';
import { withExecutionTerminal } from '../threads/terminal-execution';
import { END_REASON_EXPIRED, type ThreadState } from '../threads/thread-state';

/** setTimeout's ceiling; a later expiry re-arms when this fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Expires interrupts on time for threads in memory (seed: "an expired interrupt is rejected …, its pending
 * state removed, and the adapter tries to cancel the A2A task"). Nothing is read at start: a thread on disk
 * is expired lazily at its next access (admission, resume, cancel), which the run path does itself.
 */
@Injectable()
export class InterruptExpiryTimer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(InterruptExpiryTimer.name);
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly registry: ThreadRegistry,
    @Inject(A2A_GATEWAY) private readonly gateway: A2aGateway,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.registry.onCommit((state) => this.arm(state));
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private arm(state: ThreadState): void {
    clearTimeout(this.timers.get(state.threadId));
    this.timers.delete(state.threadId);
    const at = earliestExpiry(state.execution.pending);
    if (at === undefined) return;
    const delay = Math.min(Math.max(0, at - this.clock.now()), MAX_TIMER_MS);
    // The timer holds the id only, so the thread itself may leave the registry's cache meanwhile.
    const { threadId } = state;
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- a timer cannot await; expire() catches and logs its own failures
    const timer = setTimeout(() => void this.expire(threadId), delay);
    timer.unref();
    this.timers.set(threadId, timer);
  }

  private async expire(threadId: string): Promise<void> {
    this.timers.delete(threadId);
    try {
      await this.registry.withLock(threadId, async () => {
        const state = await this.registry.load(threadId);
        // A run holding the slot (a resume in progress) decides for itself; its write re-arms the timer.
        if (!state || this.registry.isBusy(threadId)) return;
        if (expiredIds(state.execution.pending, this.clock.now()).length === 0) return this.arm(state);
        const { execution } = state;
        if (execution.taskId) {
          await this.gateway.cancelTask(execution.taskId).catch((error: unknown) =>
            this.logger.warn({
              msg: 'CancelTask of an expired interrupt failed',
              threadId,
              error: String(error),
            }),
          );
        }
        const ended = withExecutionTerminal(state);
        await this.registry.commit({
          ...ended,
          execution: { ...ended.execution, endReason: END_REASON_EXPIRED },
        });
        this.logger.log({
          msg: 'interrupt expired',
          code: 'EXECUTION_EXPIRED',
          threadId,
          executionId: execution.executionId,
        });
      });
    } catch (error) {
      this.logger.error({ msg: 'expiring an interrupt failed', threadId, error: String(error) });
    }
  }
}
