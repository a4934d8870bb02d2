import type { BaseEvent } from '@ag-ui/core';
import { AguiError, isAguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { LeaseLostError } from '../threads/thread-coordination';
import { runFinished, runStarted } from '../events/run-events';
import { consumeFrames, type StreamEnd } from './frame-consumer';
import { Resume } from './resume/resume';
import { kernelOf, resumeRunOf } from './resume/resume-run';
import { RunContext, describeError, type RunDeps } from './run-context';
import { RunPhaseMachine, type RunPhase } from './run-phase';
import type { AdmittedRun } from './admitted-run';
import { runErrorOf, streamEndFailure, upstreamFailure, type RunFailure } from './upstream-failure';
import { userTurnMessage } from './user-turn-message';

const CANCELLED = new AguiError(ErrorCode.CANCELLED, 'executionCancelled');

/**
 * One AG-UI run against A2A, as an async sequence of AG-UI events (docs/behaviour/events.md#run-lifecycle): RUN_STARTED, the
 * durable Pipeline steps reopened, the new turn or the resume, and exactly one terminal event with every
 * span closed first — on error paths too, which the original adapter did not do.
 */
export class RunExecution {
  private readonly ctx: RunContext;
  /** The run's one phase value (docs/architecture.md#a-run); every transition goes through it. */
  private readonly phase = new RunPhaseMachine();
  /** Bounds how long a run whose client left waits for the kernel to name the task to cancel. */
  private taskIdWait?: NodeJS.Timeout;
  /**
   * Another replica may hold the thread now, or the store lost its state: stop at once, acting on nothing,
   * and end with why (docs/behaviour/state.md#the-run-lease).
   */
  private leaseLost?: AguiError;
  /** The resume, when this run answers interrupts. */
  private resume?: Resume;

  constructor(run: AdmittedRun, deps: RunDeps) {
    this.ctx = new RunContext(run, deps, (taskId) => this.taskNamed(taskId));
    // The cancel extension already cancelled the task and made the execution terminal: stop reading and
    // end with RUN_ERROR CANCELLED now, rather than waiting for the upstream to report it.
    deps.persistence.onCancelled(() => {
      if (this.phase.apply('cancel-requested')) this.ctx.abort.abort();
    });
    deps.persistence.onLeaseLost((lost) => {
      this.leaseLost = lost;
      this.ctx.abort.abort();
    });
  }

  /** The run's phase, as the transitions of run-phase.ts left it. */
  get currentPhase(): RunPhase {
    return this.phase.phase;
  }

  async *events(): AsyncGenerator<BaseEvent> {
    const { ctx, phase } = this;
    yield runStarted(ctx.identity, ctx.run.input.parentRunId, ctx.now());
    yield* ctx.mapper.reopenDurableSteps(ctx.now());
    try {
      const end = ctx.run.input.resume !== undefined ? yield* this.resumeRun() : yield* this.newTurn();
      if (phase.isOverForTheClient) return this.endLeftRun();
      const isCancelled = phase.phase === 'cancelling' && end.kind !== 'interrupted';
      if (this.leaseLost) yield* await this.fail(this.leaseLost);
      else yield* await (isCancelled ? this.fail(CANCELLED) : this.finish(end));
    } catch (error) {
      if (phase.isOverForTheClient) return this.endLeftRun();
      yield* await this.fail(this.leaseLost ?? (phase.phase === 'cancelling' ? CANCELLED : error));
    } finally {
      clearTimeout(this.taskIdWait);
    }
  }

  /**
   * The client went away before the terminal event (docs/behaviour/cancel.md#client-disconnect): cancel the
   * A2A task and make the execution terminal — unless the run already ended, or interrupts are pending (a
   * durable interrupt, or a resume not yet accepted: both stay answerable). The thread is free again as
   * soon as the execution is terminal, before the CancelTask round trip; and within the cancel timeout
   * whatever the kernel does.
   */
  disconnect(): void {
    const { ctx } = this;
    if (this.hasPendingInterrupts()) {
      // A resume not yet accepted: stop waiting for A2A, but cancel nothing and keep the interrupt.
      if (this.phase.apply('left-keeping-interrupts')) ctx.abort.abort();
    } else if (ctx.taskId) {
      if (!this.phase.apply('left-after-task')) return;
      ctx.cancelUpstream(ctx.taskId);
      // eslint-disable-next-line @typescript-eslint/no-floating-promises -- a disconnect cannot wait; the write is best effort and logs its own failure (never rejects)
      void ctx.deps.persistence.markTerminalAndRelease();
    } else if (this.phase.apply('left-before-task')) {
      // Made terminal once the reading stops (endLeftRun), after the task id it learns was written. A
      // kernel that names no task in time (a hung SendStreamingMessage) is not waited for: nothing can be
      // cancelled then, and the thread must not stay busy.
      this.taskIdWait = setTimeout(() => {
        if (!this.phase.apply('task-wait-over')) return;
        ctx.deps.logger.warn({ msg: 'the kernel named no task before the cancel timeout', ...ctx.ids() });
        ctx.abort.abort();
      }, ctx.deps.cancelTimeoutMs);
      this.taskIdWait.unref();
    }
  }

  /** A frame named the task: a run reading to cancel cancels it now, before the id is written. */
  private taskNamed(taskId: string): void {
    if (!this.phase.apply('task-named')) return;
    clearTimeout(this.taskIdWait);
    this.ctx.cancelUpstream(taskId);
  }

  /** A left run stopped reading: the execution becomes terminal unless interrupts keep it. */
  private endLeftRun(): void {
    if (this.hasPendingInterrupts() || !this.phase.apply('left-run-stopped')) return;
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- the reading stopped on a disconnect; best effort, logs its own failure (never rejects)
    void this.ctx.deps.persistence.markTerminalAndRelease();
  }

  /**
   * The service is shutting down and the drain time is over: cancel the A2A task and end the run with
   * RUN_ERROR CANCELLED (a run parked at a durable interrupt has no stream, so it is never here).
   */
  shutdown(): void {
    if (!this.phase.apply('shutdown')) return;
    if (this.ctx.taskId) this.ctx.cancelUpstream(this.ctx.taskId);
    else this.ctx.abort.abort();
  }

  private resumeRun(): AsyncGenerator<BaseEvent, StreamEnd> {
    const { ctx } = this;
    this.resume = new Resume(resumeRunOf(ctx), kernelOf(ctx.deps.gateway, ctx.abort.signal));
    return this.resume.events();
  }

  private async *newTurn(): AsyncGenerator<BaseEvent, StreamEnd> {
    const { ctx } = this;
    const message = await userTurnMessage(ctx.run);
    return yield* consumeFrames(ctx, ctx.deps.gateway.sendStreamingMessage(message, ctx.abort.signal));
  }

  /** docs/behaviour/events.md#run-lifecycle step 5. An interrupt already ended the run with RUN_FINISHED(interrupt). */
  private async finish(end: StreamEnd): Promise<BaseEvent[]> {
    const { ctx } = this;
    if (end.kind === 'interrupted') {
      this.phase.apply('interrupted');
      return [];
    }
    if (end.kind === 'abandoned') {
      await this.end();
      if (this.leaseLost) return this.takenOver(this.leaseLost, ctx.mapper.closeAll(ctx.now()));
      ctx.deps.logger.log({
        msg: 'run finished: the interrupts given up had ended',
        outcome: 'success',
        ...ctx.ids(),
      });
      return [...ctx.mapper.closeAll(ctx.now()), runFinished(ctx.identity, ctx.mapper.usage(), ctx.now())];
    }
    const events = [
      ...ctx.announceSession(true),
      ...(this.resume?.emitToolResults() ?? []),
      ...ctx.mapper.closeAll(ctx.now()),
    ];
    const failure = streamEndFailure(ctx.lastState);
    await this.end();
    if (this.leaseLost) return this.takenOver(this.leaseLost, events);
    if (failure) return [...events, this.errorEvent(failure)];
    ctx.deps.logger.log({ msg: 'run finished', outcome: 'success', ...ctx.ids() });
    return [...events, runFinished(ctx.identity, ctx.mapper.usage(), ctx.now())];
  }

  /**
   * docs/behaviour/events.md#run-lifecycle step 6, with the spans closed first (the original left them open here). An unexpected
   * failure cancels the A2A task unless interrupts are pending, which must stay answerable.
   */
  private async fail(error: unknown): Promise<BaseEvent[]> {
    const { ctx } = this;
    const events = ctx.mapper.closeAll(ctx.now());
    if (!isAguiError(error)) {
      ctx.deps.logger.error({ msg: 'A2A stream failed', error: describeError(error), ...ctx.ids() });
      if (ctx.taskId && !this.hasPendingInterrupts()) ctx.cancelUpstream(ctx.taskId);
    }
    await this.end();
    if (this.leaseLost) return this.takenOver(this.leaseLost, events);
    return [...events, this.errorEvent(upstreamFailure(error, 'stream'))];
  }

  /**
   * The run is over: with nothing pending, its execution becomes terminal before the last event goes out.
   * Then the lease is checked once more: a replica frozen past its TTL around this write may have lost the
   * turn to another, which tells it; this client then hears THREAD_TAKEN_OVER, never a second ending
   * (docs/behaviour/state.md#the-run-lease).
   */
  private async end(): Promise<void> {
    this.phase.apply('ended');
    const { persistence } = this.ctx.deps;
    try {
      if (!this.hasPendingInterrupts()) {
        await persistence.markTerminal((state) => ({
          ...state,
          execution: this.ctx.withMapperState(state.execution),
        }));
      }
      await persistence.ensureLease();
    } catch (error) {
      // Only a lost lease changes the ending; a Redis that does not answer the check calls nothing lost.
      if (error instanceof LeaseLostError) this.leaseLost ??= error;
      else
        this.ctx.deps.logger.warn({
          msg: 'the lease check after the run could not be made',
          error: describeError(error),
          ...this.ctx.ids(),
        });
    }
  }

  /**
   * The turn is another replica's now (or the store lost it): the spans closed, and THREAD_TAKEN_OVER (or
   * STATE_LOST) as the one terminal event.
   */
  private takenOver(lost: AguiError, closing: BaseEvent[]): BaseEvent[] {
    return [...closing, this.errorEvent(upstreamFailure(lost, 'stream'))];
  }

  private hasPendingInterrupts(): boolean {
    return Object.keys(this.ctx.state.execution.pending).length > 0;
  }

  private errorEvent(failure: RunFailure): BaseEvent {
    const { ctx } = this;
    ctx.deps.logger.log({ msg: 'run ended with an error', outcome: failure.code, ...ctx.ids() });
    return runErrorOf(failure, ctx.deps.catalogue, ctx.language, ctx.mapper.usage(), ctx.now());
  }
}
