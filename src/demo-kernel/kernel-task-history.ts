import { isDeepStrictEqual } from 'node:util';
import type { ListTasksRequest, ListTasksResponse, Message, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { messageBytes } from './recent-task-store';

/**
 * A task's history kept as the kernel's keeps it (docs/behaviour/a2a.md#the-kernels-own-behaviour): its SDK
 * (a2a-python) moves the status message into `history` whenever a later status update replaces it, so once a
 * turn ended, every text delta and the end-of-turn repeat of the whole answer follow the user's message there
 * and `GetTask` shows the turn's final text. The JS SDK's server adds a status message to `history` only the
 * first time its id is seen; with one message id per task (the kernel's), an ended turn's text would be in no
 * snapshot. A store around the SDK's: each save is compared with the task as last saved.
 *
 * A status update is told by a status that differs from the one saved (two identical updates in the same
 * millisecond count as one). A continuation of a task whose status holds a message would move it after the
 * user's message, not before it: the scripts' INPUT_REQUIRED frames carry none (the input is in metadata).
 */
export class KernelTaskHistory implements TaskStore {
  constructor(private readonly inner: TaskStore) {}

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.inner.load(taskId, context);
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const saved = await this.inner.load(task.id, context);
    await this.inner.save(saved ? withKernelHistory(saved, task) : task, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }
}

/**
 * How much content a task's history may hold before a replaced status message is no longer moved into it.
 * The kernel keeps them all; the SDK's store copies the whole task at every load and save, so keeping all of a
 * `flood` turn's 2,000 deltas of 8 KiB made each save copy megabytes (quadratic: ~500 MB resident, measured).
 * 64 KiB holds every scripted turn but the `flood`; past it a snapshot lacks the rest of the turn's text, as
 * with the JS SDK's own history.
 */
export const MAX_HISTORY_BYTES = 64 * 1024;

/** `next` as the JS SDK built it from `saved`, with the history a2a-python would have given it. */
export function withKernelHistory(saved: Task, next: Task): Task {
  const savedHistory = saved.history ?? [];
  const nextHistory = next.history ?? [];
  const isPrefix = savedHistory.every(
    (message, index) => message.messageId === nextHistory[index]?.messageId,
  );
  if (!isPrefix) return next;
  const added = nextHistory.slice(savedHistory.length);
  // The JS SDK appends the new status message the first time its id is seen; a2a-python keeps it in the status.
  const current = next.status?.message;
  if (current && added.length > 0 && isDeepStrictEqual(added.at(-1), current)) added.pop();
  const replaced = saved.status?.message;
  const isReplaced = replaced !== undefined && !isDeepStrictEqual(saved.status, next.status);
  const fits = (message: Message) =>
    savedHistory.reduce((sum, kept) => sum + messageBytes(kept), messageBytes(message)) <= MAX_HISTORY_BYTES;
  const moved: Message[] = isReplaced && fits(replaced) ? [replaced] : [];
  return { ...next, history: [...savedHistory, ...moved, ...added] };
}
