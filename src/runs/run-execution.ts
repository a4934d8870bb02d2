import { Logger } from '@nestjs/common';
import type { BaseEvent } from '@ag-ui/core';
import type { A2aFrame, A2aGateway } from '../a2a/a2a-gateway';
import { isAguiError } from '../common/agui-error';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { A2aEventMapper } from '../events/a2a-event-mapper';
import { runError, runFinished, runStarted, sessionEvent } from '../events/run-events';
import { decideOutcome, isStopState } from '../events/run-outcome';
import { unwrapFrame } from '../events/unwrap-frame';
import type { MessageCatalogue } from '../i18n/message-catalogue';
import type { MessageKey } from '../i18n/message-key';
import { AguiError } from '../common/agui-error';
import { buildA2aMessage } from './input/build-a2a-message';
import { buildUserParts } from './input/user-message-parts';
import type { RunPersistence } from './run-persistence';
import type { AdmittedRun } from './run-request';

const CANCELLED = new AguiError(ErrorCode.CANCELLED, 'executionCancelled');

export interface RunExecutionDeps {
  readonly gateway: A2aGateway;
  readonly persistence: RunPersistence;
  readonly clock: Clock;
  readonly catalogue: MessageCatalogue;
  readonly logger: Logger;
}

/**
 * One AG-UI run against A2A, as an async sequence of AG-UI events (reference §4.8): RUN_STARTED, the mapped
 * frames, and exactly one terminal event with every span closed first — on error paths too, which the
 * original adapter did not do. Holds the per-run state; created with `new` for each run.
 */
export class RunExecution {
  private readonly mapper: A2aEventMapper;
  private readonly abort = new AbortController();
  private taskId: string | undefined;
  private sessionId: string | undefined;
  private sessionAnnounced = false;
  private lastState: string | undefined;
  private framesSeen = 0;
  private terminalSent = false;
  private disconnected = false;
  private cancelledByRequest = false;

  constructor(
    private readonly run: AdmittedRun,
    private readonly deps: RunExecutionDeps,
  ) {
    this.mapper = new A2aEventMapper({ threadId: run.threadId, runId: run.runId }, () =>
      deps.clock.uuid().replace(/-/g, ''),
    );
    this.taskId = deps.persistence.taskId;
    this.sessionId = deps.persistence.sessionId;
    // The cancel extension already cancelled the task and made the execution terminal: stop reading and
    // end with RUN_ERROR CANCELLED now, rather than waiting for the upstream to report it.
    deps.persistence.onCancelled(() => {
      this.cancelledByRequest = true;
      this.abort.abort();
    });
  }

  /**
   * The service is shutting down and the drain time is over: cancel the A2A task and end the run with
   * RUN_ERROR CANCELLED (a run parked at a durable interrupt is not active, so it is never here).
   */
  shutdown(): void {
    if (this.terminalSent || this.disconnected || this.cancelledByRequest) return;
    this.cancelledByRequest = true;
    if (this.taskId) this.cancelUpstream(this.taskId);
    else this.abort.abort();
  }

  /** True once the terminal event was produced: a later disconnect then cancels nothing. */
  get hasEnded(): boolean {
    return this.terminalSent;
  }

  get upstreamTaskId(): string | undefined {
    return this.taskId;
  }

  async *events(): AsyncGenerator<BaseEvent> {
    const identity = { threadId: this.run.threadId, runId: this.run.runId };
    yield runStarted(identity, this.run.input.parentRunId, this.now());
    try {
      const { messageId, parts } = await buildUserParts(this.run.input.messages);
      const message = buildA2aMessage({
        messageId,
        parts,
        threadId: this.run.threadId,
        props: this.run.props,
        cwd: this.run.cwd,
        language: this.run.language,
      });
      for await (const frame of this.deps.gateway.sendStreamingMessage(message, this.abort.signal)) {
        if (this.disconnected) {
          // The client left before the task id was known; we kept reading only to learn it (see disconnect()).
          if (this.learnTaskId(frame)) return;
          continue;
        }
        const stop = await this.acceptFrame(frame);
        yield* this.announceSession();
        yield* this.mapper.map(frame, this.now());
        if (stop) break;
      }
      if (this.disconnected) return;
      yield* await (this.cancelledByRequest ? this.fail(CANCELLED) : this.finish());
    } catch (error) {
      if (this.disconnected) return;
      yield* await this.fail(this.cancelledByRequest ? CANCELLED : error);
    }
  }

  /**
   * The client went away before the terminal event (reference §7.2): cancel the A2A task. When the task id is
   * not known yet, keep reading the upstream stream silently until it is, so the task can still be cancelled.
   */
  disconnect(): void {
    if (this.terminalSent || this.disconnected) return;
    this.disconnected = true;
    if (this.taskId) this.cancelUpstream(this.taskId);
    void this.deps.persistence.markTerminal();
  }

  private learnTaskId(frame: A2aFrame): boolean {
    const { taskId } = unwrapFrame(frame);
    if (!taskId) return false;
    this.taskId = taskId;
    this.cancelUpstream(taskId);
    return true;
  }

  private cancelUpstream(taskId: string): void {
    this.abort.abort();
    this.deps.gateway.cancelTask(taskId).then(
      () => this.deps.logger.log({ msg: 'cancelled the A2A task', ...this.ids() }),
      (error: unknown) =>
        this.deps.logger.warn({
          msg: 'CancelTask failed',
          error: String(error),
          ...this.ids(),
        }),
    );
  }

  /**
   * Identity checks of reference §4.8 step 4, and persist-before-announce (§6.6): a new task or session id
   * is durable before any event of its frame is emitted. Returns true when the frame's state ends the reading.
   */
  private async acceptFrame(frame: A2aFrame): Promise<boolean> {
    this.framesSeen += 1;
    const unwrapped = unwrapFrame(frame);
    if (unwrapped.taskId && unwrapped.taskId !== this.taskId) {
      if (this.taskId) throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'taskIdentityChanged');
      this.taskId = unwrapped.taskId;
      await this.persist(
        () => this.deps.persistence.recordTask(unwrapped.taskId as string),
        'executionMappingNotCommitted',
      );
    }
    if (unwrapped.contextId && unwrapped.contextId !== this.run.contextId) {
      throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'contextIdentityChanged');
    }
    if (unwrapped.sessionId && unwrapped.sessionId !== this.sessionId) {
      if (this.sessionId) throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'sessionIdentityChanged');
      this.sessionId = unwrapped.sessionId;
      await this.persist(
        () => this.deps.persistence.recordSession(unwrapped.sessionId as string),
        'sessionMappingNotCommitted',
      );
    }
    if (!unwrapped.state) return false;
    this.lastState = unwrapped.state;
    // The first `task` frame is a snapshot (on a continuation it still shows the old INPUT_REQUIRED): it
    // never ends the reading by itself.
    const isSnapshot = unwrapped.kind === 'task' && this.framesSeen === 1;
    return !isSnapshot && isStopState(unwrapped.state);
  }

  /** A failed recovery-critical write cancels the task and ends the run (reference §6.6). */
  private async persist(write: () => Promise<void>, key: MessageKey): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.deps.logger.error({
        msg: 'state write failed during a run',
        code: ErrorCode.STATE_PERSISTENCE_FAILED,
        error: describe(error),
        ...this.ids(),
      });
      if (this.taskId) this.cancelUpstream(this.taskId);
      throw new AguiError(ErrorCode.STATE_PERSISTENCE_FAILED, key, { cause: error });
    }
  }

  /** `iac-code.session.v1` once, as soon as both the task and the session are known (reference §4.9). */
  private *announceSession(force = false): Generator<BaseEvent> {
    if (this.sessionAnnounced || (!force && (!this.taskId || !this.sessionId))) return;
    this.sessionAnnounced = true;
    yield sessionEvent(
      {
        schemaVersion: 1,
        threadId: this.run.threadId,
        aguiRunId: this.run.runId,
        executionId: this.run.executionId,
        contextId: this.run.contextId,
        taskId: this.taskId ?? null,
        rosInvocationId: this.run.rosInvocationId,
        sessionId: this.sessionId ?? null,
      },
      this.now(),
    );
  }

  private async finish(): Promise<BaseEvent[]> {
    const events = [...this.announceSession(true), ...this.mapper.closeAll(this.now())];
    const outcome = decideOutcome(this.lastState);
    await this.end();
    if (outcome.kind === 'success') {
      this.deps.logger.log({ msg: 'run finished', outcome: 'success', ...this.ids() });
      events.push(
        runFinished({ threadId: this.run.threadId, runId: this.run.runId }, this.mapper.usage(), this.now()),
      );
    } else {
      events.push(this.errorEvent(outcome.code, outcome.messageKey));
    }
    return events;
  }

  /** reference §4.8 step 6, with the spans closed first (the original left them open here). */
  private async fail(error: unknown): Promise<BaseEvent[]> {
    const events = this.mapper.closeAll(this.now());
    if (isAguiError(error)) {
      await this.end();
      events.push(this.errorEvent(error.code, error.messageKey));
      return events;
    }
    this.deps.logger.error({ msg: 'A2A stream failed', error: describe(error), ...this.ids() });
    if (this.taskId) this.cancelUpstream(this.taskId);
    await this.end();
    events.push(this.errorEvent(ErrorCode.A2A_UNAVAILABLE, 'a2aUnavailable'));
    return events;
  }

  /** The execution is over (no durable interrupt): terminal in the thread state before the last event. */
  private async end(): Promise<void> {
    this.terminalSent = true;
    await this.deps.persistence.markTerminal();
  }

  private errorEvent(code: ErrorCode, key: MessageKey): BaseEvent {
    this.deps.logger.log({ msg: 'run ended with an error', outcome: code, ...this.ids() });
    return runError(
      code,
      this.deps.catalogue.render(key, this.run.language),
      this.mapper.usage(),
      this.now(),
    );
  }

  private ids() {
    return {
      threadId: this.run.threadId,
      runId: this.run.runId,
      executionId: this.run.executionId,
      taskId: this.taskId,
    };
  }

  private now(): number {
    return this.deps.clock.now();
  }
}

/** Error text for logs: the message only (a JSON-RPC error may echo request data, never secrets we hold). */
function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
    return `${error.name}: ${error.message}${cause}`;
  }
  return String(error);
}
