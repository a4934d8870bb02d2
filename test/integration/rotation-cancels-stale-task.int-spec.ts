import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { threadFileStem } from '../../src/threads/thread-file-name';
import { paramsOf } from '../support/interrupt-helpers';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';

/**
 * A gateway that stops mid-run (a crash) leaves its execution with the kernel task still bound. The next
 * turn on that thread rotates the execution — and cancels that task, best effort, so it is not orphaned.
 */
describe('a new turn after a crash mid-run', () => {
  const gateways = useGateway({ upstream: true, startBeforeAll: false });

  it('cancels the task the crashed run left bound', async () => {
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-stale-'));
    const env = { IAC_CODE_AGUI_STATE_DIR: stateDir };
    const threadId = 'stale-task';
    const file = path.join(stateDir, 'threads', `${threadFileStem(threadId)}.json`);
    const boundTaskId = (): string | undefined => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')).execution.taskId ?? undefined;
      } catch {
        return undefined;
      }
    };
    const first = await gateways.start(env);
    const controller = new AbortController();
    const open = postRun(first.url, runInput({ threadId, text: 'silent' }), { signal: controller.signal });
    const taskId = await eventually(
      async () => boundTaskId(),
      (bound) => bound !== undefined,
    );
    expect(taskId).toEqual(expect.any(String));
    // The file as a crash leaves it (task bound); the orderly stop below would unbind it, so put it back.
    const crashTime = readFileSync(file);
    controller.abort();
    await open.catch(() => undefined);
    await first.close();
    writeFileSync(file, crashTime);

    const second = await gateways.start(env);
    const cancelsOf = async () =>
      (await paramsOf(gateways.upstream, 'CancelTask')).filter((p) => p.id === taskId);
    const before = (await cancelsOf()).length;
    const next = await postRun(second.url, runInput({ threadId, runId: 'run-2' }));
    expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const after = await eventually(cancelsOf, (cancels) => cancels.length > before);
    expect(after).toHaveLength(before + 1);
  });
});
