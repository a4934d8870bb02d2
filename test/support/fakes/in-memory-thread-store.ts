import { AguiError } from '../../../src/common/agui-error';
import { ErrorCode } from '../../../src/common/error-code';
import {
  serializeThreadState,
  validateThreadState,
  type ThreadState,
} from '../../../src/threads/thread-state';
import type { ThreadStore } from '../../../src/threads/thread-store';

/**
 * A `ThreadStore` for unit tests. It keeps the serialised text, not the object, so a test sees what a
 * real store would return (unknown keys kept, arrays sorted, no aliasing with the saved object), and
 * it runs the same contract suite as `FileThreadStore`. Hooks for the failure paths: `corrupt`,
 * `failNextSaves`, `setReady`; `loadedThreadIds` and `saveCount` prove load-on-demand and write counts.
 */
export class InMemoryThreadStore implements ThreadStore {
  readonly documents = new Map<string, string>();
  readonly loadedThreadIds: string[] = [];
  saveCount = 0;
  private failingSaves = 0;
  private isReady = true;

  async load(threadId: string): Promise<ThreadState | undefined> {
    this.loadedThreadIds.push(threadId);
    const text = this.documents.get(threadId);
    if (text === undefined) return undefined;
    try {
      return validateThreadState(JSON.parse(text), threadId);
    } catch (cause) {
      throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause });
    }
  }

  async save(state: ThreadState): Promise<void> {
    if (this.failingSaves > 0) {
      this.failingSaves--;
      throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
    }
    this.documents.set(state.threadId, serializeThreadState(state));
    this.saveCount++;
  }

  async checkReady(): Promise<void> {
    if (!this.isReady) throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
  }

  /** Replaces the thread's document with text that is not a valid state. */
  corrupt(threadId: string, text = '{"schemaVersion": 1, "threadId": '): void {
    this.documents.set(threadId, text);
  }

  /** The next `count` saves reject with STATE_UNAVAILABLE and store nothing. */
  failNextSaves(count = 1): void {
    this.failingSaves = count;
  }

  setReady(isReady: boolean): void {
    this.isReady = isReady;
  }
}
