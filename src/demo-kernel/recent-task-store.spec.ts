import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { RecentTaskStore } from './recent-task-store';

const context = {} as ServerCallContext;
const task = (id: string, text = id): Task =>
  ({ id, contextId: 'ctx', history: [], artifacts: [], metadata: { text } }) as unknown as Task;
const textOf = async (store: RecentTaskStore, id: string) =>
  ((await store.load(id, context))?.metadata as { text?: string } | undefined)?.text;

describe('RecentTaskStore', () => {
  it('keeps between limit and twice limit of the most recently saved tasks', async () => {
    const store = new RecentTaskStore(2);
    for (const id of ['t1', 't2', 't3', 't4']) await store.save(task(id), context);
    expect(await textOf(store, 't1')).toBe('t1'); // the previous generation: t1, t2
    await store.save(task('t5'), context); // the current one (t3, t4) was full: t1 and t2 are dropped
    expect(await textOf(store, 't1')).toBeUndefined();
    expect(await textOf(store, 't2')).toBeUndefined();
    expect([await textOf(store, 't3'), await textOf(store, 't4'), await textOf(store, 't5')]).toEqual([
      't3',
      't4',
      't5',
    ]);
  });

  it('a task saved again is recent again, and its latest version is the one loaded', async () => {
    const store = new RecentTaskStore(2);
    await store.save(task('t1'), context);
    await store.save(task('t2'), context);
    await store.save(task('t3'), context); // previous: t1, t2; current: t3
    await store.save(task('t1', 'updated'), context); // current: t3, t1
    await store.save(task('t4'), context); // previous: t3, t1; current: t4
    expect(await textOf(store, 't1')).toBe('updated');
    expect(await textOf(store, 't2')).toBeUndefined();
  });
});
