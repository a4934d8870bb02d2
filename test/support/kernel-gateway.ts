import { mkdtempSync } from 'node:fs';
import * as path from 'node:path';
import { RUNNING_UPSTREAM, type RunningUpstream } from '../../src/a2a/upstream';
import type { Json } from './interrupt-helpers';
import {
  getKernelTask,
  kernelDirectories,
  kernelEnvironment,
  requireKernel,
  startRealKernel,
  type KernelDirectories,
  type RealKernel,
} from './real-kernel';
import type { ScriptedLlm } from './scripted-llm/scripted-llm-server';
import { startGateway, type RunningGateway } from './start-gateway';

/**
 * How the gateway reaches the real kernel: `url`, a kernel we start and name in IAC_CODE_AGUI_A2A_URL;
 * `managed`, no URL and `iac-code` on the gateway's PATH, so the gateway runs `iac-code a2a` itself.
 */
export type UpstreamMode = 'url' | 'managed';

/** A gateway in front of the real kernel, in either mode, with the kernel's own view of its tasks. */
export interface KernelGateway {
  readonly gateway: RunningGateway;
  readonly stateDir: string;
  readonly dirs: KernelDirectories;
  /** The kernel's GetTask (in managed mode, on the child the gateway started, with its token). */
  getTask(taskId: string): Promise<Json>;
  /** A new gateway on the same state dir; in managed mode that is a new kernel child on the same config dir. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startKernelGateway(
  mode: UpstreamMode,
  llm: ScriptedLlm,
  /** More gateway settings. */
  env: Record<string, string> = {},
): Promise<KernelGateway> {
  requireKernel();
  const dirs = kernelDirectories();
  const stateDir = mkdtempSync(path.join(dirs.workspaceRoot, '..', 'gateway-state-'));
  const kernel: RealKernel | undefined = mode === 'url' ? await startRealKernel(llm, dirs) : undefined;
  const common = {
    IAC_CODE_AGUI_ALLOWED_CWDS: dirs.workspaceRoot,
    IAC_CODE_AGUI_STATE_DIR: stateDir,
    ...env,
  };
  const start = () =>
    startGateway(
      kernel
        ? { ...common, IAC_CODE_AGUI_A2A_URL: kernel.url, IAC_CODE_AGUI_A2A_TOKEN: kernel.token }
        : { ...common, ...kernelEnvironment(llm, dirs) },
    );
  let gateway = await start().catch(async (error: unknown) => {
    await kernel?.stop();
    throw error;
  });
  return {
    get gateway() {
      return gateway;
    },
    stateDir,
    dirs,
    getTask: (taskId) => {
      if (kernel) return kernel.getTask(taskId);
      const upstream = gateway.app.get<RunningUpstream>(RUNNING_UPSTREAM, { strict: false });
      return getKernelTask(upstream.descriptor.url, upstream.token ?? '', taskId);
    },
    restart: async () => {
      await gateway.close();
      gateway = await start();
    },
    close: async () => {
      await gateway.close();
      await kernel?.stop();
    },
  };
}
