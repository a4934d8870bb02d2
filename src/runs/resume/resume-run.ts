import type { BaseEvent } from '@ag-ui/core';
import type { A2aGateway } from '../../a2a/a2a-gateway';
import type { A2aEventMapper } from '../../events/a2a-event-mapper';
import type { MessageKey } from '../../i18n/message-key';
import type { PendingInterruptEntry } from '../../interrupts/pending-interrupt';
import type { ThreadState } from '../../threads/thread-state';
import type { A2aFrame, A2aOutgoingMessage } from '../../wire/a2a-wire';
import type { UnwrappedFrame } from '../../wire/unwrap-frame';
import type { AdmittedRun } from '../admitted-run';
import { commitInterrupt, consumeFrames, type ConsumeOptions, type StreamEnd } from '../frame-consumer';
import { interruptExpiresAt } from '../interrupt-ttl';
import type { RunContext, RunDeps } from '../run-context';
import type { AnswersInFlight } from './answers-in-flight';

/**
 * The run as a resume sees it: its input and thread state, the mapper, and the run's own operations
 * (persist before announce, identity checks, best-effort cancel, stream consumption). Nothing else of the
 * run is reachable from the resume.
 */
export interface ResumeRun {
  readonly run: AdmittedRun;
  readonly state: ThreadState;
  readonly sessionId: string | undefined;
  readonly mapper: A2aEventMapper;
  readonly deps: Pick<RunDeps, 'logger' | 'validate'>;
  now(): number;
  ids(): Record<string, unknown>;
  /** `{expiresAt}` for interrupts created now, or `{}` without a TTL. */
  interruptExpiry(): { expiresAt?: string };
  persist(change: (state: ThreadState) => ThreadState, failureKey: MessageKey): Promise<void>;
  acceptIdentities(frame: UnwrappedFrame): Promise<void>;
  /** Stops reading and cancels the task, best effort, once per task. */
  cancelUpstream(taskId: string): void;
  consume(frames: AsyncIterable<A2aFrame>, options?: ConsumeOptions): AsyncGenerator<BaseEvent, StreamEnd>;
  commitInterrupt(pending: Record<string, PendingInterruptEntry>): AsyncGenerator<BaseEvent>;
}

/**
 * Every kernel call of a resume, bound to the run's abort signal where the call stops with the run. The one
 * place a resume reaches A2A, built over the run's gateway, which the run service wraps in the lease guard
 * (lease-guarded-gateway.ts): no answer and no CancelTask once another replica may hold the thread.
 */
export interface ResumeKernel {
  /** docs/behaviour/interrupts.md#resume-preparation step 2; false when the kernel cannot restore it. */
  restoreSession(request: { cwd: string; sessionId: string; taskId: string }): Promise<boolean>;
  /** GetTask stops as soon as the run does (a client gone): the thread must not wait for a hung kernel. */
  getTask(taskId: string): Promise<A2aFrame>;
  pipelineState(taskId: string, afterSequence: number): Promise<Record<string, unknown> | undefined>;
  subscribe(taskId: string): AsyncIterable<A2aFrame>;
  /**
   * A non-streaming answer. Not aborted when the client leaves: an answer the kernel may have taken is
   * recorded once it says so (bounded by the call timeout), so that a retry is recognised as applied.
   */
  sendAnswer(message: A2aOutgoingMessage): Promise<A2aFrame>;
  streamAnswer(message: A2aOutgoingMessage): AsyncIterable<A2aFrame>;
  /** An awaited CancelTask (a cancelled question cancels the execution); rejects when it fails. */
  cancelTask(taskId: string): Promise<void>;
}

/** One resume's reach during a stage: the run, the kernel, what it has in flight, and the bound task. */
export interface ResumeScope {
  readonly run: ResumeRun;
  readonly kernel: ResumeKernel;
  readonly answers: AnswersInFlight;
  readonly taskId: string;
}

/** A stream consumed by the run with this resume's answers in flight. */
export function consume(
  scope: ResumeScope,
  frames: AsyncIterable<A2aFrame>,
  options: ConsumeOptions = {},
): AsyncGenerator<BaseEvent, StreamEnd> {
  return scope.run.consume(frames, { ...options, answers: scope.answers });
}

/** One frame (a GetTask answer) as a stream the run consumes. */
// eslint-disable-next-line @typescript-eslint/require-await -- an AsyncIterable of one value: nothing to await
export async function* single(frame: A2aFrame): AsyncIterable<A2aFrame> {
  yield frame;
}

/** The ResumeRun of a run context. */
export function resumeRunOf(ctx: RunContext): ResumeRun {
  return {
    run: ctx.run,
    get state() {
      return ctx.state;
    },
    get sessionId() {
      return ctx.sessionId;
    },
    mapper: ctx.mapper,
    deps: ctx.deps,
    now: () => ctx.now(),
    ids: () => ctx.ids(),
    interruptExpiry: () => interruptExpiresAt(ctx),
    persist: (change, failureKey) => ctx.persist(change, failureKey),
    acceptIdentities: (frame) => ctx.acceptIdentities(frame),
    cancelUpstream: (taskId) => ctx.cancelUpstream(taskId),
    consume: (frames, options) => consumeFrames(ctx, frames, options),
    commitInterrupt: (pending) => commitInterrupt(ctx, pending),
  };
}

/** The ResumeKernel of a gateway, for a run stopped by `signal`. */
export function kernelOf(gateway: A2aGateway, signal: AbortSignal): ResumeKernel {
  return {
    restoreSession: (request) => gateway.ensureSessionRestored(request, signal),
    getTask: (taskId) => gateway.getTask(taskId, undefined, signal),
    pipelineState: (taskId, afterSequence) => gateway.getPipelineState(taskId, afterSequence, signal),
    subscribe: (taskId) => gateway.subscribeToTask(taskId, signal),
    sendAnswer: (message) => gateway.sendMessage(message),
    streamAnswer: (message) => gateway.sendStreamingMessage(message, signal),
    cancelTask: (taskId) => gateway.cancelTask(taskId),
  };
}
