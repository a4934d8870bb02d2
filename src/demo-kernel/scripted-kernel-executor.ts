import { Message, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutionEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { SystemClock, type Clock } from '../common/clock';
import { KERNEL_FAULT_METADATA_KEY } from './faults/kernel-fault-marker';
import { kernelSessionId, statusFrame } from './kernel-frames';
import { announcedInputsOf } from './kernel-inputs';
import type {
  KernelAnswer,
  KernelAwaitStep,
  KernelFault,
  KernelFrame,
  KernelScriptBook,
  KernelStep,
  KernelTurnInput,
} from './kernel-script';
import { scriptFlagsOf } from './script-flags';
import { BACKUP_NOT_READY_FLAG } from './kernel-session-restore';
import { createKernelSharedState, type KernelSharedState } from './kernel-shared-state';
import { pipelineEnvelopesOf } from './pipeline-envelopes';
import { userTextOf } from './user-text-of';

const CANCEL = 'cancel';
const DISPOSE = 'dispose';
/** An await step published its INPUT_REQUIRED frame: the turn ends here and resumes on the next message. */
const PARKED = 'parked';

interface ActiveTurn {
  readonly controller: AbortController;
  /** False while parked in a `hang-cancel` script: CancelTask then gets no answer. */
  answersCancel: boolean;
}

/**
 * Plays a `KernelScript` on the SDK's event bus, opening every turn as the kernel does: `task`
 * (SUBMITTED), `statusUpdate` SUBMITTED, then WORKING (docs/behaviour/a2a.md#the-kernels-own-behaviour). A follow-up message on
 * an existing task opens with that task's snapshot instead (docs/behaviour/a2a.md#sdk-notes) and, when the
 * task's last turn ended at an input, continues that turn's script with the answer.
 */
export class ScriptedKernelExecutor implements AgentExecutor {
  private readonly activeTurns = new Map<string, ActiveTurn>();
  private readonly contextOfTask = new Map<string, string>();

  constructor(
    private readonly scripts: KernelScriptBook,
    private readonly clock: Clock = new SystemClock(),
    readonly state: KernelSharedState = createKernelSharedState(),
  ) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    this.contextOfTask.set(taskId, contextId);
    const userText = userTextOf(Message.toJSON(context.userMessage));
    const input: KernelTurnInput = { userText, taskId, contextId, sessionId: kernelSessionId(contextId) };
    const turn: ActiveTurn = { controller: new AbortController(), answersCancel: true };
    this.activeTurns.set(taskId, turn);
    const parked = this.state.inputs.beginTurn(taskId, contextId);
    if (!context.task) {
      const isBackupPending = scriptFlagsOf(userText).includes(BACKUP_NOT_READY_FLAG);
      this.state.sessions.remember(taskId, input.sessionId, isBackupPending);
    }
    this.publishOpening(context, input, bus);
    const steps = parked ? [parked] : this.scripts.select(userText).steps(input);
    await this.play(steps, input, turn, bus);
  }

  /**
   * docs/behaviour/a2a.md#sdk-notes: the SDK's CancelTask waits on the bus until a terminal event arrives, so this
   * must lead to a CANCELED update: a running turn publishes it when it sees the abort; a task parked at
   * the end of its turn (INPUT_REQUIRED keeps the bus alive) has no loop left, so it is published here.
   */
  // eslint-disable-next-line @typescript-eslint/require-await -- the SDK's AgentExecutor declares it async; nothing here waits
  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const turn = this.activeTurns.get(taskId);
    if (turn) {
      if (!turn.answersCancel) return;
      turn.controller.abort(CANCEL);
      this.state.inputs.forget(taskId);
      return;
    }
    this.state.inputs.forget(taskId);
    bus.publish(this.canceledEvent(taskId, this.contextOfTask.get(taskId) ?? ''));
  }

  /** Stops every turn without publishing anything more (server shutdown). */
  dispose(): void {
    for (const turn of this.activeTurns.values()) turn.controller.abort(DISPOSE);
    this.activeTurns.clear();
  }

  private publishOpening(context: RequestContext, input: KernelTurnInput, bus: ExecutionEventBus): void {
    if (context.task) {
      bus.publish(AgentEvent.task(context.task));
    } else {
      bus.publish(
        AgentEvent.task({
          id: input.taskId,
          contextId: input.contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: this.timestamp() },
          artifacts: [],
          history: [context.userMessage],
          metadata: {},
        }),
      );
      bus.publish(this.toEvent(statusFrame(input, 'TASK_STATE_SUBMITTED')));
    }
    bus.publish(this.toEvent(statusFrame(input, 'TASK_STATE_WORKING')));
  }

  /** Inputs and Pipeline envelopes are recorded before the frame leaves, so an answer or a recovery call can never outrun them. */
  private publishFrame(frame: KernelFrame, input: KernelTurnInput, bus: ExecutionEventBus): void {
    this.state.inputs.announce(input.taskId, input.contextId, announcedInputsOf(frame));
    this.state.pipelines.record(input.taskId, pipelineEnvelopesOf(frame));
    bus.publish(this.toEvent(frame));
  }

  private async play(
    steps: readonly KernelStep[],
    input: KernelTurnInput,
    turn: ActiveTurn,
    bus: ExecutionEventBus,
  ): Promise<void> {
    const signal = turn.controller.signal;
    const queue = [...steps];
    try {
      for (let step = queue.shift(); step && !signal.aborted; step = queue.shift()) {
        if (step.kind === 'frame') this.publishFrame(step.frame, input, bus);
        else if (step.kind === 'pause') await pause(step.ms, signal);
        else if (step.kind === 'hold') await this.state.holds.wait(signal);
        else if (step.kind === 'park') {
          turn.answersCancel = step.answersCancel;
          await pause(undefined, signal);
        } else if (step.kind === 'await-guidance') {
          const text = await this.state.guidance.next(input.taskId, signal);
          if (text !== undefined) queue.unshift(...step.resume(text));
        } else if (step.kind === 'await') {
          const answer = await this.answerFor(step, input, signal, bus);
          if (answer === PARKED) return;
          if (answer) queue.unshift(...step.resume(answer));
        } else {
          bus.publish(this.faultEvent(input, step.fault));
          // Only the stream ends there; the turn goes on for whoever subscribes next.
          if (step.fault.kind !== 'end-stream') return;
        }
      }
      if (signal.aborted && signal.reason === CANCEL)
        bus.publish(this.canceledEvent(input.taskId, input.contextId));
    } finally {
      // Synchronously with the last publish, so a CancelTask arriving afterwards takes the "parked" path.
      if (this.activeTurns.get(input.taskId) === turn) {
        this.activeTurns.delete(input.taskId);
        this.state.inputs.endTurn(input.taskId);
      }
    }
  }

  /**
   * An answer that already arrived; else, with a park frame, INPUT_REQUIRED and the end of the turn
   * (the stream closes, docs/behaviour/a2a.md#the-kernels-own-behaviour); else wait with the task still WORKING
   * for a sideband answer. Undefined when cancelled while waiting.
   */
  private async answerFor(
    step: KernelAwaitStep,
    input: KernelTurnInput,
    signal: AbortSignal,
    bus: ExecutionEventBus,
  ): Promise<KernelAnswer | typeof PARKED | undefined> {
    const ready = this.state.inputs.takeAnswer(input.taskId, step.inputIds);
    if (ready) return ready;
    if (step.parkFrame) {
      this.publishFrame(step.parkFrame, input, bus);
      this.state.inputs.park(input.taskId, step);
      return PARKED;
    }
    return this.state.inputs.awaitAnswer(input.taskId, step.inputIds, signal);
  }

  private toEvent(frame: KernelFrame): AgentExecutionEvent {
    if ('artifactUpdate' in frame) {
      return AgentEvent.artifactUpdate(TaskArtifactUpdateEvent.fromJSON(frame.artifactUpdate));
    }
    const update = TaskStatusUpdateEvent.fromJSON(frame.statusUpdate);
    if (update.status && !update.status.timestamp) update.status.timestamp = this.timestamp();
    return AgentEvent.statusUpdate(update);
  }

  private canceledEvent(taskId: string, contextId: string): AgentExecutionEvent {
    const ids = { taskId, contextId, sessionId: kernelSessionId(contextId) };
    return this.toEvent(statusFrame(ids, 'TASK_STATE_CANCELED'));
  }

  private faultEvent(input: KernelTurnInput, fault: KernelFault): AgentExecutionEvent {
    return AgentEvent.statusUpdate({
      taskId: input.taskId,
      contextId: input.contextId,
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: this.timestamp() },
      metadata: { [KERNEL_FAULT_METADATA_KEY]: fault },
    });
  }

  private timestamp(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

/** Resolves after `ms` (never, when undefined) or as soon as the signal aborts. */
function pause(ms: number | undefined, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = ms === undefined ? undefined : setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
