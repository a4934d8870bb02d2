import { EventType } from '@ag-ui/core';
import { mkdtempSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { A2A_UPSTREAM, type UpstreamDescriptor } from '../../src/a2a/upstream';
import { expectConformantEvents } from '../support/agui-conformance';
import { childrenOf, isAlive } from '../support/child-processes';
import { postResume } from '../support/interrupt-helpers';
import { ALLOW_ONCE, kernelTurn, parkPermission } from '../support/kernel-run-checks';
import { textOf } from '../support/pipeline-run-checks';
import {
  kernelDirectories,
  kernelEnvironment,
  KERNEL_CASE_TIMEOUT_MS,
  KERNEL_START_TIMEOUT_MS,
  requireKernel,
  type KernelDirectories,
} from '../support/real-kernel';
import {
  chooseKernelReply,
  Marker,
  plainAnswer,
  WRITTEN_CONTENT,
} from '../support/scripted-llm/kernel-conversation';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm/scripted-llm-server';
import { postRun } from '../support/sse-client';
import { describeRealKernelRuns } from '../support/real-kernel-runs';
import { startGateway, type RunningGateway } from '../support/start-gateway';

/**
 * Managed mode: no A2A URL, `iac-code` on the gateway's PATH (the venv's bin), so the gateway starts
 * `iac-code a2a` itself, drives it, and stops it when the app closes. These cases run in order on one child;
 * the run cases every mode passes follow, on a gateway (and child) of their own.
 */
describe('the gateway running the real kernel itself (managed upstream)', () => {
  let llm: ScriptedLlm;
  let dirs: KernelDirectories;
  let gateway: RunningGateway;
  let child: { pid: number; url: string };
  jest.setTimeout(KERNEL_CASE_TIMEOUT_MS);

  beforeAll(async () => {
    requireKernel();
    llm = await startScriptedLlm(chooseKernelReply);
    dirs = kernelDirectories();
    gateway = await startGateway({
      ...kernelEnvironment(llm, dirs),
      IAC_CODE_AGUI_ALLOWED_CWDS: dirs.workspaceRoot,
      IAC_CODE_AGUI_STATE_DIR: mkdtempSync(path.join(dirs.workspaceRoot, '..', 'gateway-state-')),
    });
  }, KERNEL_START_TIMEOUT_MS + 10_000);
  let isClosed = false;
  afterAll(async () => {
    if (!isClosed) await gateway?.close();
    await llm?.close();
  });

  it('starts `iac-code a2a` from PATH as its own child and reports it ready', async () => {
    const { url } = gateway.app.get<UpstreamDescriptor>(A2A_UPSTREAM);
    const kernels = childrenOf(process.pid).filter((entry) =>
      /iac-code a2a --host 127\.0\.0\.1 --port/.test(entry.args),
    );
    expect(kernels).toHaveLength(1);
    child = { pid: kernels[0].pid, url };
    expect(kernels[0].args).toContain(`--port ${new URL(url).port}`);

    const health = await fetch(`${gateway.url}health`);
    expect(await health.json()).toMatchObject({ upstream: 'managed' });
    expect((await fetch(`${gateway.url}health/ready`)).status).toBe(200);
  });

  it('runs a text turn and a permission through the child', async () => {
    const workspace = mkdtempSync(path.join(dirs.workspaceRoot, 'ws-'));
    const text = await postRun(
      gateway.url,
      kernelTurn({ threadId: 'managed-text', runId: 'run-1', text: 'hi', cwd: workspace }),
    );
    await expectConformantEvents(text.events);
    expect(textOf(text.events)).toBe(plainAnswer(1));

    const { interrupt } = await parkPermission(
      gateway.url,
      kernelTurn({
        threadId: 'managed-perm',
        runId: 'run-1',
        text: `${Marker.writeFile} managed.txt`,
        cwd: workspace,
      }),
    );
    const resumed = await postResume(
      gateway.url,
      'managed-perm',
      'run-2',
      [{ interruptId: interrupt.id, ...ALLOW_ONCE }],
      { cwd: workspace },
    );
    await expectConformantEvents(resumed.events);
    expect(resumed.events.at(-1)).toMatchObject({
      type: EventType.RUN_FINISHED,
      outcome: { type: 'success' },
    });
    expect(readFileSync(path.join(workspace, 'managed.txt'), 'utf8')).toBe(WRITTEN_CONTENT);
  });

  it('stops the child when the app closes: the process is gone and its port closed', async () => {
    await gateway.close();
    isClosed = true;

    expect(isAlive(child.pid)).toBe(false);
    await expect(fetch(`${child.url}health`)).rejects.toThrow();
  });
});

describeRealKernelRuns('managed');
