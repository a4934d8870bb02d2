/**
 * Guidance the scripted kernel received for its live Pipelines: a user message sent with the `taskId` of
 * a task whose turn is still running, and which waits for no input, is routed into that turn (as the
 * kernel routes it into the active Pipeline) instead of starting a new one. Shared by the JSON-RPC
 * endpoint (which delivers) and the executor (whose `await-guidance` step takes it).
 */
export class KernelGuidance {
  private readonly inbox = new Map<string, string[]>();
  private readonly wakers = new Map<string, () => void>();

  deliver(taskId: string, text: string): void {
    this.inbox.set(taskId, [...(this.inbox.get(taskId) ?? []), text]);
    this.wakers.get(taskId)?.();
  }

  /** The next guidance text for the task, waiting for one; undefined once `signal` aborts. */
  async next(taskId: string, signal: AbortSignal): Promise<string | undefined> {
    for (;;) {
      const texts = this.inbox.get(taskId);
      if (texts?.length) {
        const [first, ...rest] = texts;
        if (rest.length) this.inbox.set(taskId, rest);
        else this.inbox.delete(taskId);
        return first;
      }
      if (signal.aborted) return undefined;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.wakers.delete(taskId);
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.wakers.set(taskId, done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }
}
