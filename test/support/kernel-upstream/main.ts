/**
 * Process entry of the scripted kernel used by integration tests (docs/architecture.md#decisions: a separate
 * process, so a test can kill the gateway alone). Run with
 * `node_modules/.bin/node --import tsx test/support/kernel-upstream/main.ts [--ping-ms N] [--max-tasks N] [--no-journal]`.
 * Token from IACCODE_A2A_HTTP_TOKEN, like the kernel. Prints `KERNEL_UPSTREAM_READY <url>` when listening.
 * Adds the test-only control routes of `upstream-protocol.ts` (journal, faults, holds, session-restore mode, Pipeline waits).
 */
import { KernelFaultInjector } from '../../../src/demo-kernel/faults/kernel-fault-injector';
import { KernelHolds } from '../../../src/demo-kernel/kernel-holds';
import type { KernelRequestLogEntry } from '../../../src/demo-kernel/kernel-request-log-entry';
import { startKernelServer } from '../../../src/demo-kernel/kernel-server';
import { KernelSessionRestore } from '../../../src/demo-kernel/kernel-session-restore';
import { PipelineJournal } from '../../../src/demo-kernel/pipeline-journal';
import { testControlRoutes } from './test-control-routes';
import { KERNEL_UPSTREAM_READY, TEST_ROUTE_PREFIX } from './upstream-protocol';

function positiveIntegerFlag(argv: readonly string[], flag: string): number | undefined {
  const index = argv.indexOf(flag);
  if (index < 0) return undefined;
  const value = Number(argv[index + 1]);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${flag} needs a positive integer, got ${argv[index + 1]}`);
  return value;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // --no-journal: a long fuzz keeps no request (their bodies are what it sends most of).
  const keepsJournal = !argv.includes('--no-journal');
  const journal: KernelRequestLogEntry[] = [];
  const faults = new KernelFaultInjector();
  const sessions = new KernelSessionRestore();
  const holds = new KernelHolds();
  const pipelines = new PipelineJournal();
  const server = await startKernelServer({
    port: 0,
    token: process.env.IACCODE_A2A_HTTP_TOKEN || undefined,
    pingIntervalMs: positiveIntegerFlag(argv, '--ping-ms'),
    maxTasks: positiveIntegerFlag(argv, '--max-tasks'),
    onRequest: (entry) => {
      if (keepsJournal && !entry.path.startsWith(TEST_ROUTE_PREFIX)) journal.push(entry);
    },
    routes: testControlRoutes({ journal, faults, sessions, holds, pipelines }),
    faults,
    sessions,
    holds,
    pipelines,
  });
  let isClosing = false;
  const shutdown = (): void => {
    if (isClosing) return;
    isClosing = true;
    void server.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.stdout.write(`${KERNEL_UPSTREAM_READY} ${server.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `kernel upstream failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
