import {
  TaskState,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type Part,
  type Task,
} from '@a2a-js/sdk';
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';

/** What one generation of RecentTaskStore may hold before the next task opens a new one. */
export interface RecentTaskLimits {
  readonly tasks: number;
  /** Of the tasks' content, as `approximateTaskBytes` counts it. */
  readonly bytes: number;
}

/**
 * The SDK's in-memory task store, less its memory: two generations of tasks — once the current one holds
 * `limits.tasks` tasks or `limits.bytes` of content, the next new task starts a new one, and the oldest
 * generation is dropped, less the tasks whose turn still runs — so at most 2 × the limits (plus the last task
 * saved and the running ones) are kept, the most recent ones.
 * The demo kernel's store (`npm start`, the demo image, `agui-a2a-gateway/testing`, the tests' kernel
 * process): one keeping every task (and the bodies in their history, megabytes each for a hostile client)
 * grows with each run; a dropped task is unknown to the kernel, as after its restart. `list` sees the current
 * generation only.
 */
export class RecentTaskStore implements TaskStore {
  private current = new InMemoryTaskStore();
  private previous = new InMemoryTaskStore();
  /** Each generation's tasks, with their size and state when last saved. */
  private savedInCurrent = new Map<string, SavedTask>();
  private savedInPrevious = new Map<string, SavedTask>();
  private currentBytes = 0;

  constructor(private readonly limits: RecentTaskLimits) {}

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return (await this.current.load(taskId, context)) ?? (await this.previous.load(taskId, context));
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const isFull = this.savedInCurrent.size >= this.limits.tasks || this.currentBytes >= this.limits.bytes;
    if (!this.savedInCurrent.has(task.id) && isFull) await this.startGeneration();
    const bytes = approximateTaskBytes(task);
    this.currentBytes += bytes - (this.savedInCurrent.get(task.id)?.bytes ?? 0);
    this.savedInCurrent.set(task.id, { bytes, isRunning: isRunning(task), context });
    await this.current.save(task, context);
  }

  /** The current generation becomes the previous one; of the one dropped, a task whose turn runs is kept. */
  private async startGeneration(): Promise<void> {
    const dropped = this.previous;
    const running = [...this.savedInPrevious].filter(
      ([taskId, saved]) => saved.isRunning && !this.savedInCurrent.has(taskId),
    );
    this.previous = this.current;
    this.savedInPrevious = this.savedInCurrent;
    this.current = new InMemoryTaskStore();
    this.savedInCurrent = new Map();
    this.currentBytes = 0;
    for (const [taskId, saved] of running) {
      const task = await dropped.load(taskId, saved.context);
      if (!task) continue;
      this.currentBytes += saved.bytes;
      this.savedInCurrent.set(taskId, saved);
      await this.current.save(task, saved.context);
    }
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.current.list(params, context);
  }
}

interface SavedTask {
  readonly bytes: number;
  /** Submitted or working: its turn still publishes, so it must stay known. */
  readonly isRunning: boolean;
  readonly context: ServerCallContext;
}

const RUNNING_STATES: ReadonlySet<TaskState | undefined> = new Set([
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);

function isRunning(task: Task): boolean {
  return RUNNING_STATES.has(task.status?.state);
}

/**
 * About what a task holds: the content and metadata of the parts of its history, status message and
 * artifacts (text and URLs by length, raw bytes by size, data by its JSON), and its own metadata.
 */
export function approximateTaskBytes(task: Task): number {
  const messages = task.status?.message ? [...task.history, task.status.message] : task.history;
  const parts = [...messages, ...task.artifacts].flatMap((holder) => holder.parts);
  const metadata = [task, ...messages].map((holder) => jsonLength(holder.metadata));
  return [...parts.map(partBytes), ...metadata].reduce((sum, bytes) => sum + bytes, 0);
}

/** A message's content and metadata, as `approximateTaskBytes` counts them. */
export function messageBytes(message: Message): number {
  return message.parts.reduce((sum, part) => sum + partBytes(part), jsonLength(message.metadata));
}

function partBytes(part: Part): number {
  const content = part.content;
  const size =
    content === undefined
      ? 0
      : content.$case === 'raw'
        ? content.value.byteLength
        : content.$case === 'data'
          ? jsonLength(content.value)
          : content.value.length;
  return size + jsonLength(part.metadata);
}

function jsonLength(value: unknown): number {
  return value === undefined ? 0 : (JSON.stringify(value)?.length ?? 0);
}
