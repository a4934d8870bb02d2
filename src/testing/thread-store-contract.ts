import assert from 'node:assert/strict';
import { ErrorCode } from '../common/error-code';
import type { ThreadState } from '../threads/thread-state';
import type { ThreadStore } from '../threads/thread-store';
import {
  boundedCases,
  type ContractCase,
  type ContractSuiteOptions,
  type UnboundedCase,
} from './contract-case';
import { sampleThreadState } from './sample-thread-state';

/** A fresh, empty store for one case, and how to put a damaged document behind its back. */
export interface ThreadStoreUnderTest {
  readonly store: ThreadStore;
  cleanup(): Promise<void>;
  /** Puts an unreadable document where the thread's state lives, behind the store's back. */
  corrupt(threadId: string): Promise<void>;
}

/**
 * What every ThreadStore must do (docs/embedding.md#thread-stores): the built-in file and Redis stores run
 * exactly these cases, and so should a host's. `makeStore` is called once per case; every case is bounded
 * (`options.timeoutMs`).
 */
export function threadStoreContractCases(
  makeStore: () => Promise<ThreadStoreUnderTest>,
  options: ContractSuiteOptions = {},
): ContractCase[] {
  const withStore =
    (body: (store: ThreadStore, subject: ThreadStoreUnderTest) => Promise<void>) => async () => {
      const subject = await makeStore();
      try {
        await body(subject.store, subject);
      } finally {
        await subject.cleanup();
      }
    };
  const loads = async (store: ThreadStore, threadId: string, expected: ThreadState | undefined) =>
    assert.deepEqual(await store.load(threadId), expected);
  const unusualIds = [
    { name: 'case-only difference', ids: ['Thread-1', 'thread-1'] },
    { name: 'path-like id', ids: ['../external/thread', 'external/thread'] },
    { name: 'long ids', ids: ['T'.repeat(115), 'T'.repeat(116)] },
    { name: 'non-ASCII ids', ids: ['会话'.repeat(40), '会话'] },
  ];
  const cases: UnboundedCase[] = [
    {
      name: 'answers undefined for a thread it has never saved',
      run: withStore((store) => loads(store, 'thread-missing', undefined)),
    },
    {
      name: 'returns what was saved',
      run: withStore(async (store) => {
        await store.save(sampleThreadState('thread-1'));
        await loads(store, 'thread-1', sampleThreadState('thread-1'));
      }),
    },
    {
      name: 'replaces the previous document on save',
      run: withStore(async (store) => {
        await store.save(sampleThreadState('thread-1', 'v1'));
        await store.save(sampleThreadState('thread-1', 'v2'));
        await loads(store, 'thread-1', sampleThreadState('thread-1', 'v2'));
      }),
    },
    {
      name: 'keeps unknown fields at every level',
      run: withStore(async (store) => {
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
        await store.save(state);
        await loads(store, 'thread-1', state);
      }),
    },
    {
      name: 'does not alias the saved object',
      run: withStore(async (store) => {
        const state = sampleThreadState('thread-1');
        await store.save(state);
        state.runDigests['run-later'] = 'e'.repeat(64);
        await loads(store, 'thread-1', sampleThreadState('thread-1'));
      }),
    },
    {
      name: 'keeps two threads apart',
      run: withStore(async (store) => {
        await store.save(sampleThreadState('thread-a', 'a'));
        await store.save(sampleThreadState('thread-b', 'b'));
        await store.save(sampleThreadState('thread-a', 'a2'));
        await loads(store, 'thread-a', sampleThreadState('thread-a', 'a2'));
        await loads(store, 'thread-b', sampleThreadState('thread-b', 'b'));
      }),
    },
    ...unusualIds.map(({ name, ids }) => ({
      name: `round-trips and isolates unusual ids: ${name}`,
      run: withStore(async (store) => {
        for (const [index, id] of ids.entries()) await store.save(sampleThreadState(id, `m${index}`));
        for (const [index, id] of ids.entries()) await loads(store, id, sampleThreadState(id, `m${index}`));
      }),
    })),
    {
      name: 'answers STATE_UNAVAILABLE for a corrupt thread only, and recovers on the next save',
      run: withStore(async (store, subject) => {
        await store.save(sampleThreadState('thread-1'));
        await store.save(sampleThreadState('thread-2'));
        await subject.corrupt('thread-1');
        await assert.rejects(store.load('thread-1'), {
          code: ErrorCode.STATE_UNAVAILABLE,
          messageKey: 'stateUnavailable',
        });
        await loads(store, 'thread-2', sampleThreadState('thread-2'));
        await store.save(sampleThreadState('thread-1', 'v2'));
        await loads(store, 'thread-1', sampleThreadState('thread-1', 'v2'));
      }),
    },
    {
      name: 'is ready',
      run: withStore(async (store) => assert.equal(await store.checkReady(), undefined)),
    },
  ];
  return boundedCases(cases, options);
}
