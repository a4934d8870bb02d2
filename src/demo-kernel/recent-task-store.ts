import type { ListTasksRequest, ListTasksResponse, Part, Task } from '@a2a-js/sdk';
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
 * generation is dropped — so at most 2 × the limits (plus the last task saved) are kept, the most recent ones.
 * The demo kernel's store (`npm start`, the demo image, `agui-a2a-gateway/testing`, the tests' kernel
 * process): one keeping every task (and the bodies in their history, megabytes each for a hostile client)
 * grows with each run; a dropped task is unknown to the kernel, as after its restart. `list` sees the current
 * generation only.
 */
export class RecentTaskStore implements TaskStore {
  private current = new InMemoryTaskStore();
  private previous = new InMemoryTaskStore();
  /** The current generation's tasks, each with its size when last saved. */
  private bytesInCurrent = new Map<string, number>();
  private currentBytes = 0;

  constructor(private readonly limits: RecentTaskLimits) {}

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return (await this.current.load(taskId, context)) ?? (await this.previous.load(taskId, context));
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const isFull = this.bytesInCurrent.size >= this.limits.tasks || this.currentBytes >= this.limits.bytes;
    if (!this.bytesInCurrent.has(task.id) && isFull) {
      this.previous = this.current;
      this.current = new InMemoryTaskStore();
      this.bytesInCurrent = new Map();
      this.currentBytes = 0;
    }
    const bytes = approximateTaskBytes(task);
    this.currentBytes += bytes - (this.bytesInCurrent.get(task.id) ?? 0);
    this.bytesInCurrent.set(task.id, bytes);
    await this.current.save(task, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.current.list(params, context);
  }
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
