import { ErrorCode } from '../../src/common/error-code';
import { contextIdForThread } from '../../src/threads/thread-context-id';
import type { ThreadState } from '../../src/threads/thread-state';
import type { ThreadStore } from '../../src/threads/thread-store';

export interface ThreadStoreUnderTest {
  store: ThreadStore;
  cleanup(): Promise<void>;
  /** Puts an unreadable document where the thread's state lives, behind the store's back. */
  corrupt(threadId: string): Promise<void>;
}

/** A valid state for `threadId`; `marker` makes documents of one thread distinguishable. */
export function sampleThreadState(threadId: string, marker = 'v1'): ThreadState {
  return {
    schemaVersion: 1,
    threadId,
    contextId: contextIdForThread(threadId),
    cwd: '/srv/ws',
    userId: 'user-1',
    iacCodeSessionId: null,
    execution: {
      executionId: `exec-${marker}`,
      rosInvocationId: 'invocation-1',
      taskId: null,
      lastTaskId: null,
      pipelineSequence: 0,
      pipelineOpenSteps: [],
      textSnapshotDigests: [],
      pending: {},
    },
    runDigests: { [`run-${marker}`]: 'd'.repeat(64) },
    appliedResumeDigests: [],
    terminalExecutionIds: [],
  };
}

/**
 * What every ThreadStore must do (CONTRIBUTING.md). Call it from a spec:
 * `describeThreadStoreContract('FileThreadStore', async () => ({ store, cleanup, corrupt }))`.
 */
export function describeThreadStoreContract(
  name: string,
  makeStore: () => Promise<ThreadStoreUnderTest>,
): void {
  describe(`${name} (ThreadStore contract)`, () => {
    let subject: ThreadStoreUnderTest;
    beforeEach(async () => {
      subject = await makeStore();
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it('answers undefined for a thread it has never saved', async () => {
      await expect(subject.store.load('thread-missing')).resolves.toBeUndefined();
    });

    it('returns what was saved', async () => {
      const state = sampleThreadState('thread-1');
      await subject.store.save(state);
      await expect(subject.store.load('thread-1')).resolves.toEqual(state);
    });

    it('replaces the previous document on save', async () => {
      await subject.store.save(sampleThreadState('thread-1', 'v1'));
      await subject.store.save(sampleThreadState('thread-1', 'v2'));
      await expect(subject.store.load('thread-1')).resolves.toEqual(sampleThreadState('thread-1', 'v2'));
    });

    it('keeps unknown fields at every level', async () => {
      const base = sampleThreadState('thread-1');
      const state = {
        ...base,
        futureField: { nested: ['kept'] },
        execution: {
          ...base.execution,
          futureExecutionField: 1,
          pending: {
            'input-1': {
              value: { inputId: 'input-1', kind: 'ask_user_question' },
              sideband: true,
              futureEntryField: 'x',
            },
          },
        },
      } as ThreadState;
      await subject.store.save(state);
      await expect(subject.store.load('thread-1')).resolves.toEqual(state);
    });

    it('does not alias the saved object', async () => {
      const state = sampleThreadState('thread-1');
      await subject.store.save(state);
      state.runDigests['run-later'] = 'e'.repeat(64);
      await expect(subject.store.load('thread-1')).resolves.toEqual(sampleThreadState('thread-1'));
    });

    it('keeps two threads apart', async () => {
      await subject.store.save(sampleThreadState('thread-a', 'a'));
      await subject.store.save(sampleThreadState('thread-b', 'b'));
      await subject.store.save(sampleThreadState('thread-a', 'a2'));
      await expect(subject.store.load('thread-a')).resolves.toEqual(sampleThreadState('thread-a', 'a2'));
      await expect(subject.store.load('thread-b')).resolves.toEqual(sampleThreadState('thread-b', 'b'));
    });

    it.each([
      { name: 'case-only difference', ids: ['Thread-1', 'thread-1'] },
      { name: 'path-like id', ids: ['../external/thread', 'external/thread'] },
      { name: 'long ids', ids: ['T'.repeat(115), 'T'.repeat(116)] },
      { name: 'non-ASCII ids', ids: ['会话'.repeat(40), '会话'] },
    ])('round-trips and isolates unusual ids: $name', async ({ ids }) => {
      for (const [index, id] of ids.entries()) await subject.store.save(sampleThreadState(id, `m${index}`));
      for (const [index, id] of ids.entries())
        await expect(subject.store.load(id)).resolves.toEqual(sampleThreadState(id, `m${index}`));
    });

    it('answers STATE_UNAVAILABLE for a corrupt thread only, and recovers on the next save', async () => {
      await subject.store.save(sampleThreadState('thread-1'));
      await subject.store.save(sampleThreadState('thread-2'));
      await subject.corrupt('thread-1');
      await expect(subject.store.load('thread-1')).rejects.toMatchObject({
        code: ErrorCode.STATE_UNAVAILABLE,
        messageKey: 'stateUnavailable',
      });
      await expect(subject.store.load('thread-2')).resolves.toEqual(sampleThreadState('thread-2'));
      await subject.store.save(sampleThreadState('thread-1', 'v2'));
      await expect(subject.store.load('thread-1')).resolves.toEqual(sampleThreadState('thread-1', 'v2'));
    });

    it('is ready', async () => {
      await expect(subject.store.checkReady()).resolves.toBeUndefined();
    });
  });
}
