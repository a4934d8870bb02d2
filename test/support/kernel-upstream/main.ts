/**
 * Process entry of the scripted kernel used by integration tests (DESIGN "Test upstreams": a separate
 * process, so a test can kill the gateway alone). Run with
 * `node_modules/.bin/node --import tsx test/support/kernel-upstream/main.ts [--ping-ms N]`.
 * Token from IACCODE_A2A_HTTP_TOKEN, like the kernel. Prints `KERNEL_UPSTREAM_READY <url>` when listening.
 */
import type { ServerResponse } from 'node:http';
import { startKernelServer } from '../../../src/a2a/embedded/kernel-server';
import type { KernelRequestLogEntry } from '../../../src/a2a/embedded/kernel-request-log-entry';
import { KERNEL_UPSTREAM_READY, REQUEST_JOURNAL_PATH } from './upstream-protocol';

function pingMsFrom(argv: readonly string[]): number | undefined {
  const index = argv.indexOf('--ping-ms');
  if (index < 0) return undefined;
  const value = Number(argv[index + 1]);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`--ping-ms needs a positive integer, got ${argv[index + 1]}`);
  return value;
}

async function main(): Promise<void> {
  const journal: KernelRequestLogEntry[] = [];
  const server = await startKernelServer({
    port: 0,
    token: process.env.IACCODE_A2A_HTTP_TOKEN || undefined,
    pingIntervalMs: pingMsFrom(process.argv.slice(2)),
    onRequest: (entry) => {
      if (!entry.path.startsWith(REQUEST_JOURNAL_PATH)) journal.push(entry);
    },
    routes: {
      [`GET ${REQUEST_JOURNAL_PATH}`]: (_request, response: ServerResponse) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(journal));
      },
    },
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
