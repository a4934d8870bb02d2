import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';

/**
 * The SDK's in-memory task store, less its memory: two generations of at most `limit` tasks each — once the
 * current one is full it becomes the previous one and the oldest generation is dropped — so between `limit` and
 * 2 × `limit` of the most recently saved tasks are kept. For a long fuzz of the gateway, where a kernel keeping
 * every task (and the hostile bodies in their history) would outgrow the machine; a dropped task is unknown to
 * the kernel, as after its restart. `list` sees the current generation only.
 */
export class RecentTaskStore implements TaskStore {
  private current = new InMemoryTaskStore();
  private previous = new InMemoryTaskStore();
  private savedInCurrent = new Set<string>();

  constructor(private readonly limit: number) {}

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return (await this.current.load(taskId, context)) ?? (await this.previous.load(taskId, context));
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    if (!this.savedInCurrent.has(task.id) && this.savedInCurrent.size >= this.limit) {
      this.previous = this.current;
      this.current = new InMemoryTaskStore();
      this.savedInCurrent = new Set();
    }
    this.savedInCurrent.add(task.id);
    await this.current.save(task, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.current.list(params, context);
  }
}
