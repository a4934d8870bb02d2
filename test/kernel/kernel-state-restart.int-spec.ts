import { EventType, type BaseEvent } from '@ag-ui/core';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expectConformantEvents } from '../support/agui-conformance';
import { postResume, readThread } from '../support/interrupt-helpers';
import { ALLOW_ONCE, kernelTurn, parkPermission, sessionOf } from '../support/kernel-run-checks';
import {
  kernelDirectories,
  KERNEL_START_TIMEOUT_MS,
  startRealKernel,
  type KernelDirectories,
  type RealKernel,
} from '../support/real-kernel';
import { chooseKernelReply, Marker, WRITTEN_CONTENT } from '../support/scripted-llm/kernel-conversation';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm/scripted-llm-server';
import { startGateway, type RunningGateway } from '../support/start-gateway';

/**
 * A pod re-created on one state volume (a `helm upgrade`, a drain): the gateway and its kernel sidecar both
 * stop and start again. The gateway's parked interrupt is in its state dir; the kernel's half — the task
 * snapshot it restores at start — is in its config dir. With IAC_CODE_CONFIG_DIR under the gateway's state
 * dir both halves survive and the parked permission resumes; with a config dir that does not survive (an
 * emptyDir), the same resume cannot.
 */
describe('a parked interrupt across a restart of both the gateway and the kernel', () => {
  let llm: ScriptedLlm;
  const running: { gateways: RunningGateway[]; kernels: RealKernel[] } = { gateways: [], kernels: [] };

  const startPod = async (stateDir: string, kernelDirs: KernelDirectories) => {
    const kernel = await startRealKernel(llm, kernelDirs);
    running.kernels.push(kernel);
    const gateway = await startGateway({
      IAC_CODE_AGUI_A2A_URL: kernel.url,
      IAC_CODE_AGUI_A2A_TOKEN: kernel.token,
      IAC_CODE_AGUI_ALLOWED_CWDS: kernelDirs.workspaceRoot,
      IAC_CODE_AGUI_STATE_DIR: stateDir,
    });
    running.gateways.push(gateway);
    return {
      gateway,
      kernel,
      stop: async () => {
        running.gateways.splice(running.gateways.indexOf(gateway), 1);
        await gateway.close();
        await kernel.stop();
      },
    };
  };

  /** Parks a bash permission on a fresh volume, then replaces both processes; returns the second pod. */
  const parkThenReplace = async (kernelConfigDirAfter: (stateDir: string) => string) => {
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-volume-'));
    const before = kernelDirectories(path.join(stateDir, 'kernel'));
    const workspace = mkdtempSync(path.join(before.workspaceRoot, 'ws-'));
    const first = await startPod(stateDir, before);
    const parked = await parkPermission(
      first.gateway.url,
      kernelTurn({
        threadId: 'restart',
        runId: 'run-1',
        text: `${Marker.writeFile} kept.txt`,
        cwd: workspace,
      }),
    );
    await first.stop();

    const after = { ...before, configDir: kernelConfigDirAfter(stateDir) };
    const second = await startPod(stateDir, after);
    const resumed = await postResume(
      second.gateway.url,
      'restart',
      'run-2',
      [{ interruptId: parked.interrupt.id, ...ALLOW_ONCE }],
      { cwd: workspace },
    );
    expect(resumed.status).toBe(200);
    await expectConformantEvents(resumed.events);
    return {
      parked: parked.events,
      resumed: resumed.events,
      second,
      stateDir,
      file: path.join(workspace, 'kept.txt'),
    };
  };

  beforeAll(async () => {
    llm = await startScriptedLlm(chooseKernelReply);
  });
  afterEach(async () => {
    for (const gateway of running.gateways.splice(0)) await gateway.close();
    for (const kernel of running.kernels.splice(0)) await kernel.stop();
  });
  afterAll(() => llm?.close());

  it(
    'resumes when the kernel config dir is under the state dir: the kernel restored its task',
    async () => {
      const { parked, resumed, second, stateDir, file } = await parkThenReplace((dir) =>
        path.join(dir, 'kernel'),
      );

      expect(resumed.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      expect(readFileSync(file, 'utf8')).toBe(WRITTEN_CONTENT);
      const taskId = sessionOf(parked).taskId;
      expect(sessionOf(resumed).taskId).toBe(taskId);
      expect((await second.kernel.getTask(taskId)).id).toBe(taskId);
      expect(readThread(stateDir, 'restart').execution.pending).toEqual({});
    },
    2 * KERNEL_START_TIMEOUT_MS,
  );

  it(
    'cannot resume when the kernel config dir did not survive (the state the chart must not lose)',
    async () => {
      const { resumed, file } = await parkThenReplace((dir) => mkdtempSync(path.join(dir, 'kernel-fresh-')));

      // The new kernel has no such task; how the gateway names that (today A2A_UNAVAILABLE) is not the point.
      expect(resumed.at(-1)).toMatchObject({ type: EventType.RUN_ERROR });
      expect((resumed.at(-1) as BaseEvent & { code: string }).code).toMatch(
        /^(EXECUTION_LOST|A2A_UNAVAILABLE)$/,
      );
      expect(existsSync(file)).toBe(false);
    },
    2 * KERNEL_START_TIMEOUT_MS,
  );
});
