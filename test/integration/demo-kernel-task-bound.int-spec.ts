import { randomUUID } from 'node:crypto';
import { endOfTurnFrames } from '../../src/demo-kernel/kernel-frames';
import type { KernelScriptBook } from '../../src/demo-kernel/kernel-script';
import {
  DEFAULT_MAX_TASK_BYTES,
  DEFAULT_MAX_TASKS,
  startKernelServer,
  type KernelServer,
} from '../../src/demo-kernel/kernel-server';
import { startScriptedKernel } from '../../src/testing';

/** A turn that ends at once, as the kernel ends one (the count of tasks is what is checked). */
const INSTANT: KernelScriptBook = {
  select: () => ({
    name: 'instant',
    steps: (input) => endOfTurnFrames(input, '').map((frame) => ({ kind: 'frame', frame })),
  }),
};

/** The two answers read here: SendMessage's `result.task`, GetTask's bare task; an unknown task an error. */
type RpcAnswer = { result?: { id?: string; task?: { id: string } }; error?: unknown };

async function rpc(url: string, method: string, params: unknown): Promise<RpcAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }),
  });
  return (await response.json()) as RpcAnswer;
}

/** Opens `count` tasks, `parallel` at a time; their ids in the order they were opened. */
async function openTasks(url: string, count: number, parallel = 25, text = 'hello'): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, () =>
      rpc(url, 'SendMessage', {
        message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
      }).then(({ result }) => String(result?.task?.id)),
    );
    ids.push(...(await Promise.all(batch)));
  }
  return ids;
}

const isKnown = async (url: string, taskId: string) =>
  (await rpc(url, 'GetTask', { id: taskId })).result?.id === taskId;
/** Five tasks opened one after another in generations of two: (1, 2), (3, 4), then 5 drops the first. */
const FIVE_IN_GENERATIONS_OF_TWO = [false, false, true, true, true];

/**
 * The demo kernel (`npm start`, the demo image, `agui-a2a-gateway/testing`) keeps a bounded number of tasks
 * (RecentTaskStore): the SDK's own store keeps every task, and the service would grow with each run.
 */
describe('the demo kernel keeps a bounded number of tasks', () => {
  let server: KernelServer | undefined;
  afterEach(() => server?.close());

  it('by default: after twice DEFAULT_MAX_TASKS newer tasks the first is gone, the newest kept', async () => {
    server = await startKernelServer({ scripts: INSTANT });
    const ids = await openTasks(server.url, 2 * DEFAULT_MAX_TASKS + 1);
    expect(await isKnown(server.url, ids.at(-1)!)).toBe(true);
    expect(await isKnown(server.url, ids[0])).toBe(false);
  }, 120_000);

  it('by default: tasks of half DEFAULT_MAX_TASK_BYTES each are dropped after four newer ones', async () => {
    server = await startKernelServer({ scripts: INSTANT });
    const ids = await openTasks(server.url, 5, 1, 'x'.repeat(DEFAULT_MAX_TASK_BYTES / 2));
    expect(await Promise.all(ids.map((id) => isKnown(server!.url, id)))).toEqual(FIVE_IN_GENERATIONS_OF_TWO);
  }, 60_000);

  it("the testing entry's kernel takes the bound as maxTasks", async () => {
    server = await startScriptedKernel({ maxTasks: 2 });
    const ids = await openTasks(server.url, 5, 1);
    expect(await Promise.all(ids.map((id) => isKnown(server!.url, id)))).toEqual(FIVE_IN_GENERATIONS_OF_TWO);
  }, 60_000);
});
