import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/load-config';
import { DEMO_NOT_BUILT_MESSAGE, providedDemoKernel } from './demo-upstream';
import { decideUpstream } from './decide-upstream';
import type { RunningUpstream } from './upstream';

const logger = new Logger('A2aUpstream');

/**
 * Starts what IAC_CODE_AGUI_UPSTREAM asks for (docs/architecture.md#decisions): nothing for an external URL, the
 * managed `iac-code a2a` child (docs/behaviour/a2a.md#managed-child), or the embedded demo kernel in this process,
 * when the demo build registered it (a production build refuses to start).
 */
export async function startUpstream(config: AppConfig): Promise<RunningUpstream> {
  const needsExecutable = config.upstream.mode === 'auto' && !config.upstream.a2aUrl;
  // The managed child's code is loaded only in the modes that may start it (docs/benchmarks.md "Memory").
  const executable = needsExecutable
    ? await (
        await import('./managed/find-executable')
      ).findExecutable('iac-code', config.childEnvironment.PATH)
    : undefined;
  const plan = decideUpstream(config.upstream, executable, providedDemoKernel() !== undefined);
  let running: RunningUpstream;
  switch (plan.kind) {
    case 'url':
      running = {
        descriptor: { kind: 'url', url: plan.url },
        token: plan.token,
        stop: () => Promise.resolve(),
      };
      break;
    case 'managed': {
      const { IacCodeProcess } = await import('./managed/iac-code-process');
      const child = new IacCodeProcess({
        executable: plan.executable,
        environment: config.childEnvironment,
        readinessTimeoutMs: config.managedStartTimeoutMs,
      });
      const url = await child.start();
      running = { descriptor: { kind: 'managed', url }, token: child.token, stop: () => child.stop() };
      break;
    }
    case 'demo': {
      const startDemoKernel = providedDemoKernel();
      if (!startDemoKernel) throw new ConfigError(DEMO_NOT_BUILT_MESSAGE);
      const token = randomBytes(32).toString('base64url');
      const server = await startDemoKernel({ host: '127.0.0.1', port: 0, token });
      running = { descriptor: { kind: 'demo', url: server.url }, token, stop: () => server.close() };
      break;
    }
  }
  logger.log(`A2A upstream kind=${running.descriptor.kind} url=${running.descriptor.url}`);
  return running;
}
