import type { Logger } from '@nestjs/common';
import type { BaseEvent } from '@ag-ui/core';
import type { A2aGateway } from '../a2a/a2a-gateway';
import { AguiError } from '../common/agui-error';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { A2aEventMapper } from '../events/a2a-event-mapper';
import { sessionEvent } from '../events/run-events';
import type { RunIdentity } from '../events/run-identity';
import type { UnwrappedFrame } from '../wire/unwrap-frame';
import type { ValidateResponse } from '../interrupts/resume-plan';
import type { Language, MessageCatalogue } from '../i18n/message-catalogue';
import type { MessageKey } from '../i18n/message-key';
import { normalizeLanguage } from '../i18n/negotiate-language';
import { LeaseLostError } from '../threads/thread-coordination';
import type { ThreadExecution, ThreadState } from '../threads/thread-state';
import {
  withLearnedIdentities,
  type LearnedIdentities,
  type RunPersistence,
} from '../threads/run-persistence';
import type { AdmittedRun } from './admitted-run';

/** What a run needs from the rest of the service; injected by RunService. */
export interface RunDeps {
  readonly gateway: A2aGateway;
  readonly persistence: RunPersistence;
  readonly clock: Clock;
  readonly catalogue: MessageCatalogue;
  readonly logger: Logger;
  readonly validate: ValidateResponse;
  /** IAC_CODE_AGUI_INTERRUPT_TTL in seconds; 0 = no adapter-side expiry. */
  readonly interruptTtlSeconds: number;
  /** IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS in ms: also how long a left run may wait to learn its task id. */
  readonly cancelTimeoutMs: number;
}

/**
 * The state one run carries across its flows (new turn, resume, continuation): the mapper, the A2A
 * identities learned so far, and the helpers that keep "persist before announce" (docs/behaviour/state.md#persist-before-announce) in one
 * place. Created with `new` for each run; never shared.
 */
export class RunContext {
  readonly mapper: A2aEventMapper;
  readonly abort = new AbortController();
  readonly identity: RunIdentity;
  private boundTaskId: string | undefined;
  private boundSessionId: string | undefined;
  /** The last non-empty task state reported by A2A (docs/behaviour/events.md#run-lifecycle step 4). */
  private lastReportedState: string | undefined;
  private sessionAnnounced = false;
  /** The task a CancelTask was sent for: a run cancels its task once, whichever path asks first. */
  private cancelledTaskId: string | undefined;

  /**
   * `onTaskNamed` hears of the task id as soon as a frame names it, before it is written: a run whose
   * client already left cancels it then (docs/behaviour/cancel.md#client-disconnect).
   */
  constructor(
    readonly run: AdmittedRun,
    readonly deps: RunDeps,
    private readonly onTaskNamed: (taskId: string) => void = () => undefined,
  ) {
    const { state } = deps.persistence;
    this.identity = { threadId: run.threadId, runId: run.runId };
    this.mapper = new A2aEventMapper(this.identity, () => deps.clock.uuid().replace(/-/g, ''), {
      pipelineOpenSteps: state.execution.pipelineOpenSteps,
      textSnapshotDigests: state.execution.textSnapshotDigests,
      pipelineSequence: state.execution.pipelineSequence,
    });
    this.boundTaskId = state.execution.taskId ?? undefined;
    this.boundSessionId = state.iacCodeSessionId ?? undefined;
  }

  /** The A2A task of this run, once known (bound at admission or named by a frame). */
  get taskId(): string | undefined {
    return this.boundTaskId;
  }

  get sessionId(): string | undefined {
    return this.boundSessionId;
  }

  get lastState(): string | undefined {
    return this.lastReportedState;
  }

  /** A frame's task state; an empty one leaves the last reported state as it was. */
  recordState(state: string | undefined): void {
    if (state) this.lastReportedState = state;
  }

  get isSessionAnnounced(): boolean {
    return this.sessionAnnounced;
  }

  get state(): ThreadState {
    return this.deps.persistence.state;
  }

  now(): number {
    return this.deps.clock.now();
  }

  /** The ids every log line of this run carries (CONTRIBUTING.md). */
  ids() {
    return {
      threadId: this.run.threadId,
      runId: this.run.runId,
      ...(this.run.admittedRunId !== this.run.runId ? { admittedRunId: this.run.admittedRunId } : {}),
      executionId: this.run.executionId,
      taskId: this.taskId,
    };
  }

  render(key: MessageKey, language?: string): string {
    return this.deps.catalogue.render(key, (language && normalizeLanguage(language)) || this.run.language);
  }

  /** Interrupt fallback texts use the input's own language (docs/behaviour/http.md#languages). */
  readonly fallbackMessage = (
    key: 'permissionRequired' | 'inputRequired',
    language: string | undefined,
  ): string => this.render(key, language);

  /**
   * Identity checks of docs/behaviour/events.md#run-lifecycle step 4 and persist-before-announce (docs/behaviour/state.md#persist-before-announce): a new task or session id
   * is durable before any event of its frame is emitted. A frame naming both new ids costs one write; a new id
   * is made durable even when a later check of the same frame fails, as the run's end may need it.
   */
  async acceptIdentities(frame: UnwrappedFrame): Promise<void> {
    const { taskId, sessionId, contextId } = frame;
    const learned: LearnedIdentities = {};
    try {
      if (taskId && taskId !== this.taskId) {
        if (this.taskId) throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'taskIdentityChanged');
        this.boundTaskId = learned.taskId = taskId;
        this.onTaskNamed(taskId);
      }
      if (contextId && contextId !== this.run.contextId) {
        throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'contextIdentityChanged');
      }
      if (sessionId && sessionId !== this.sessionId) {
        if (this.sessionId) throw new AguiError(ErrorCode.A2A_PROTOCOL_ERROR, 'sessionIdentityChanged');
        this.boundSessionId = learned.sessionId = sessionId;
      }
    } finally {
      if (learned.taskId || learned.sessionId) {
        await this.persist(
          (state) => withLearnedIdentities(state, learned),
          learned.taskId ? 'executionMappingNotCommitted' : 'sessionMappingNotCommitted',
        );
      }
    }
  }

  /** `iac-code.session.v1` once: when the task and the session are both known, or `force`d (docs/behaviour/events.md#session-event). */
  *announceSession(force = false): Generator<BaseEvent> {
    if (this.sessionAnnounced || (!force && (!this.taskId || !this.sessionId))) return;
    this.sessionAnnounced = true;
    yield sessionEvent(
      {
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

  /** The mapper's durable cursor, open steps and text digests, for a write of the execution. */
  withMapperState(execution: ThreadExecution): ThreadExecution {
    return {
      ...execution,
      pipelineSequence: this.mapper.pipelineCursor,
      pipelineOpenSteps: this.mapper.durableOpenSteps,
      textSnapshotDigests: this.mapper.textSnapshotDigests,
    };
  }

  /** A recovery-critical write: on failure the task is cancelled and the run ends (docs/behaviour/state.md#persist-before-announce). */
  async persist(change: (state: ThreadState) => ThreadState, failureKey: MessageKey): Promise<void> {
    try {
      await this.deps.persistence.write(change);
    } catch (error) {
      // Another replica holds the thread now: nothing more is sent to the kernel, not even a cancel.
      if (error instanceof LeaseLostError) throw error;
      this.deps.logger.error({
        msg: 'state write failed during a run',
        code: ErrorCode.STATE_PERSISTENCE_FAILED,
        error: describeError(error),
        ...this.ids(),
      });
      if (this.taskId) this.cancelUpstream(this.taskId);
      throw new AguiError(ErrorCode.STATE_PERSISTENCE_FAILED, failureKey, { cause: error });
    }
  }

  /** Stops reading the upstream and cancels its task, best effort (logged, never thrown), once per task. */
  cancelUpstream(taskId: string): void {
    this.abort.abort();
    if (this.cancelledTaskId === taskId) return;
    this.cancelledTaskId = taskId;
    this.deps.gateway.cancelTask(taskId).then(
      () => this.deps.logger.log({ msg: 'cancelled the A2A task', ...this.ids() }),
      (error: unknown) =>
        this.deps.logger.warn({ msg: 'CancelTask failed', error: describeError(error), ...this.ids() }),
    );
  }

  get language(): Language {
    return this.run.language;
  }
}

/** Error text for logs: the message only (a JSON-RPC error may echo request data, never secrets we hold). */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
    return `${error.name}: ${error.message}${cause}`;
  }
  return String(error);
}
