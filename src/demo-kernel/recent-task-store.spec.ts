import { TaskState, type Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { approximateTaskBytes, RecentTaskStore } from './recent-task-store';

const context = {} as ServerCallContext;
const task = (id: string, text = id): Task =>
  ({ id, contextId: 'ctx', history: [], artifacts: [], metadata: { text } }) as unknown as Task;
/** A task whose history holds one text part of `size` characters. */
const sized = (id: string, size: number): Task =>
  ({
    id,
    contextId: 'ctx',
    history: [{ messageId: `m-${id}`, parts: [{ content: { $case: 'text', value: 'x'.repeat(size) } }] }],
    artifacts: [],
    metadata: undefined,
  }) as unknown as Task;
const isKept = async (store: RecentTaskStore, id: string) => (await store.load(id, context)) !== undefined;
const textOf = async (store: RecentTaskStore, id: string) =>
  ((await store.load(id, context))?.metadata as { text?: string } | undefined)?.text;

describe('RecentTaskStore', () => {
  it('keeps between limit and twice limit of the most recently saved tasks', async () => {
    const store = new RecentTaskStore({ tasks: 2, bytes: Infinity });
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
    const store = new RecentTaskStore({ tasks: 2, bytes: Infinity });
    await store.save(task('t1'), context);
    await store.save(task('t2'), context);
    await store.save(task('t3'), context); // previous: t1, t2; current: t3
    await store.save(task('t1', 'updated'), context); // current: t3, t1
    await store.save(task('t4'), context); // previous: t3, t1; current: t4
    expect(await textOf(store, 't1')).toBe('updated');
    expect(await textOf(store, 't2')).toBeUndefined();
  });

  it('starts a new generation once the current one holds the byte limit: big tasks are dropped sooner', async () => {
    const store = new RecentTaskStore({ tasks: 1000, bytes: 100 });
    await store.save(sized('big-1', 60), context);
    await store.save(sized('big-2', 60), context); // current: big-1, big-2 (120 bytes: full)
    await store.save(sized('small', 1), context); // previous: big-1, big-2; current: small
    expect(await isKept(store, 'big-1')).toBe(true);
    await store.save(sized('big-3', 120), context); // current: small, big-3 (full)
    await store.save(sized('next', 1), context); // big-1 and big-2 dropped
    expect([await isKept(store, 'big-1'), await isKept(store, 'big-2')]).toEqual([false, false]);
    expect([await isKept(store, 'small'), await isKept(store, 'big-3'), await isKept(store, 'next')]).toEqual(
      [true, true, true],
    );
  });

  it('counts a task saved again at its latest size, not twice', async () => {
    const store = new RecentTaskStore({ tasks: 1000, bytes: 100 });
    for (let i = 0; i < 5; i++) await store.save(sized('growing', 30), context); // 30 bytes (150 if summed)
    await store.save(sized('second', 1), context); // not full: the same generation
    await store.save(sized('third', 100), context);
    await store.save(sized('fourth', 1), context); // full: growing, second and third become the previous one
    expect(await isKept(store, 'growing')).toBe(true);
    await store.save(sized('fifth', 100), context);
    await store.save(sized('sixth', 1), context); // and are dropped now
    expect(await isKept(store, 'growing')).toBe(false);
  });
});

describe('RecentTaskStore: a task whose turn runs', () => {
  const inState = (id: string, state: TaskState): Task =>
    ({
      id,
      contextId: 'ctx',
      status: { state },
      history: [],
      artifacts: [],
      metadata: undefined,
    }) as unknown as Task;

  it('outlives its generation until it is saved finished; a parked one does not', async () => {
    const store = new RecentTaskStore({ tasks: 2, bytes: Infinity });
    await store.save(inState('running', TaskState.TASK_STATE_WORKING), context);
    await store.save(inState('parked', TaskState.TASK_STATE_INPUT_REQUIRED), context);
    for (const id of ['t3', 't4', 't5'])
      await store.save(inState(id, TaskState.TASK_STATE_COMPLETED), context);
    expect([await isKept(store, 'running'), await isKept(store, 'parked')]).toEqual([true, false]);
    await store.save(inState('running', TaskState.TASK_STATE_COMPLETED), context);
    for (const id of ['t6', 't7', 't8', 't9'])
      await store.save(inState(id, TaskState.TASK_STATE_COMPLETED), context);
    expect(await isKept(store, 'running')).toBe(false);
  });
});

describe('approximateTaskBytes', () => {
  it('counts the parts of the history, the status message and the artifacts, and the metadata', () => {
    const part = (content: unknown, metadata?: unknown) => ({
      content,
      metadata,
      filename: '',
      mediaType: '',
    });
    const taskOf = {
      id: 't',
      contextId: 'c',
      history: [{ parts: [part({ $case: 'text', value: 'abc' })], metadata: { k: 1 } }],
      status: { message: { parts: [part({ $case: 'raw', value: Buffer.alloc(10) })] } },
      artifacts: [{ parts: [part({ $case: 'data', value: { a: 'b' } }, { m: true })] }],
      metadata: { x: 'y' },
    } as unknown as Task;
    const json = (value: unknown) => JSON.stringify(value).length;
    expect(approximateTaskBytes(taskOf)).toBe(
      3 + 10 + json({ a: 'b' }) + json({ m: true }) + json({ x: 'y' }) + json({ k: 1 }),
    );
  });
});
