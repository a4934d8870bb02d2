import type { PendingInputsView } from './check-kernel-answer';
import type { InputRoute } from './kernel-inputs';
import type { KernelAnswer, KernelAwaitStep, KernelInputValue } from './kernel-script';

interface TaskInputs {
  readonly contextId: string;
  /** Announced and not answered yet, by input id, with the field that carried them. */
  readonly pending: Map<string, { readonly value: KernelInputValue; readonly via: InputRoute }>;
  /** Accepted answers no turn has used yet. */
  readonly inbox: KernelAnswer[];
  /** The await step a turn stopped at, when it ended at INPUT_REQUIRED. */
  parked?: KernelAwaitStep;
  /** A turn runs on the task (or the SDK is about to start one for an accepted answer). */
  isBusy: boolean;
  wake?: () => void;
}

/** A permission answer the kernel accepted: a repeat of it is acknowledged as a duplicate. */
export interface PermissionReceipt {
  readonly contextId: string;
  readonly value: KernelInputValue;
  readonly decision: 'allow_once' | 'deny';
}

/** Where an accepted answer goes: to a turn that runs, or through the SDK to a new turn. */
export type AnswerDestination = 'running-turn' | 'new-turn';

/**
 * What each task waits for, shared by the executor (which announces inputs, parks and resumes turns)
 * and the JSON-RPC endpoint (which checks answers before the SDK sees them). The SDK keeps no script
 * state between messages, so a parked turn lives here (docs/behaviour/a2a.md#sdk-notes).
 */
export class PendingKernelInputs {
  private readonly tasks = new Map<string, TaskInputs>();
  /**
   * The last input each task announced on an INPUT_REQUIRED frame. The kernel's task store merges status
   * metadata, so a task back at INPUT_REQUIRED after the answer still shows it (its GetTask does).
   */
  private readonly lastDirectInputs = new Map<string, KernelInputValue>();
  /** Accepted permission answers by task and input id; kept after the turn ends, dropped on cancel. */
  private readonly receipts = new Map<string, Map<string, PermissionReceipt>>();

  /** A turn starts on a task; returns the await step it parked at, to continue from. */
  beginTurn(taskId: string, contextId: string): KernelAwaitStep | undefined {
    const task = this.taskOf(taskId, contextId);
    task.isBusy = true;
    const parked = task.parked;
    task.parked = undefined;
    return parked;
  }

  endTurn(taskId: string): void {
    const task = this.tasks.get(taskId);
    if (!task) return;
    task.isBusy = false;
    if (task.pending.size === 0 && task.inbox.length === 0 && !task.parked) this.tasks.delete(taskId);
  }

  /** The executor published a frame announcing these inputs: answers to them are now accepted. */
  announce(
    taskId: string,
    contextId: string,
    inputs: readonly { value: KernelInputValue; via: InputRoute }[],
  ) {
    if (inputs.length === 0) return;
    const task = this.taskOf(taskId, contextId);
    for (const input of inputs) {
      task.pending.set(input.value.inputId, input);
      if (input.via === 'input') this.lastDirectInputs.set(taskId, input.value);
    }
  }

  /** A turn runs on the task now (not parked at INPUT_REQUIRED, not ended). */
  isRunning(taskId: string): boolean {
    return this.tasks.get(taskId)?.isBusy === true;
  }

  /** What the task waits for, or undefined when it waits for nothing. */
  viewOf(taskId: string): PendingInputsView | undefined {
    const task = this.tasks.get(taskId);
    if (!task || task.pending.size === 0) return undefined;
    return {
      taskId,
      contextId: task.contextId,
      values: [...task.pending.values()].map((input) => input.value),
    };
  }

  /**
   * `metadata.iac_code` inputs for a task snapshot in `state`, as the kernel shows them (docs/behaviour/interrupts.md#resume-preparation
   * step 5): the pending sideband permissions, and the direct input, which stays on a task at
   * INPUT_REQUIRED even once answered (the kernel drops it only while the task is not INPUT_REQUIRED).
   */
  snapshotInputsOf(taskId: string, state: unknown): Record<string, unknown> | undefined {
    const inputs = [...(this.tasks.get(taskId)?.pending.values() ?? [])];
    const direct = state === 'TASK_STATE_INPUT_REQUIRED' ? this.lastDirectInputs.get(taskId) : undefined;
    const sideband = inputs.filter((input) => input.via === 'pendingPermissions').map((input) => input.value);
    if (!direct && sideband.length === 0) return undefined;
    return {
      ...(direct ? { input: direct } : {}),
      ...(sideband.length ? { pendingPermissions: sideband } : {}),
    };
  }

  /**
   * A checked answer: its input stops pending (a second answer to it is refused). The task is marked
   * busy at once, so an answer to another of its inputs arriving before the new turn starts goes to
   * that turn instead of starting a second one.
   */
  accept(taskId: string, answer: KernelAnswer): AnswerDestination {
    const task = this.tasks.get(taskId);
    if (!task) return 'new-turn';
    const value = task.pending.get(answer.inputId)?.value;
    if (value && answer.kind === 'permission') {
      const receipts = this.receipts.get(taskId) ?? new Map<string, PermissionReceipt>();
      receipts.set(answer.inputId, { contextId: task.contextId, value, decision: answer.decision });
      this.receipts.set(taskId, receipts);
    }
    task.pending.delete(answer.inputId);
    const destination: AnswerDestination = task.isBusy ? 'running-turn' : 'new-turn';
    task.isBusy = true;
    return destination;
  }

  /** Hands an accepted answer to the task's turn (now, or when it next awaits). */
  deliver(taskId: string, answer: KernelAnswer): void {
    const task = this.tasks.get(taskId);
    if (!task) return;
    task.inbox.push(answer);
    task.wake?.();
  }

  /** Takes an answer to one of `inputIds` from the inbox, if one arrived. */
  takeAnswer(taskId: string, inputIds: readonly string[]): KernelAnswer | undefined {
    const inbox = this.tasks.get(taskId)?.inbox;
    const index = inbox?.findIndex((answer) => inputIds.includes(answer.inputId)) ?? -1;
    return index < 0 ? undefined : inbox!.splice(index, 1)[0];
  }

  /** Waits, with the turn still running, for an answer to one of `inputIds`; undefined once aborted. */
  async awaitAnswer(
    taskId: string,
    inputIds: readonly string[],
    signal: AbortSignal,
  ): Promise<KernelAnswer | undefined> {
    for (;;) {
      const answer = this.takeAnswer(taskId, inputIds);
      if (answer || signal.aborted) return answer;
      const task = this.tasks.get(taskId);
      if (!task) return undefined;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          task.wake = undefined;
          signal.removeEventListener('abort', done);
          resolve();
        };
        task.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** The turn ended at INPUT_REQUIRED inside `step`; the next message on the task continues it. */
  park(taskId: string, step: KernelAwaitStep): void {
    const task = this.tasks.get(taskId);
    if (task) task.parked = step;
  }

  /** The accepted answer to a permission of the task, if it was answered. */
  receiptOf(taskId: string, inputId: unknown): PermissionReceipt | undefined {
    return typeof inputId === 'string' ? this.receipts.get(taskId)?.get(inputId) : undefined;
  }

  /** The task was cancelled: nothing it waited for can be answered any more. */
  forget(taskId: string): void {
    this.tasks.get(taskId)?.wake?.();
    this.tasks.delete(taskId);
    this.receipts.delete(taskId);
    this.lastDirectInputs.delete(taskId);
  }

  private taskOf(taskId: string, contextId: string): TaskInputs {
    let task = this.tasks.get(taskId);
    if (!task) {
      task = { contextId, pending: new Map(), inbox: [], isBusy: false };
      this.tasks.set(taskId, task);
    }
    return task;
  }
}
