/**
 * Child process of thread-crash.int-spec.ts: saves successive `crashDocument`s for the given threads
 * through FileThreadStore in a tight loop until it is killed. It continues from the sequence number it
 * finds on disk and prints "ready" once every thread has been written in this run.
 * Usage: node --import tsx test/integration/thread-crash-writer.ts <stateDir> <threadId>...
 */
import { FileThreadStore } from '../../src/threads/file-thread-store';
import { crashDocument, sequenceOf } from './thread-crash-document';

async function main(): Promise<void> {
  const [stateDir, ...threadIds] = process.argv.slice(2);
  const store = new FileThreadStore(stateDir);
  const next = new Map<string, number>();
  for (const threadId of threadIds) {
    const state = await store.load(threadId);
    next.set(threadId, state === undefined ? 0 : sequenceOf(state) + 1);
  }
  for (let round = 0; ; round++) {
    for (const threadId of threadIds) {
      const sequence = next.get(threadId) ?? 0;
      await store.save(crashDocument(threadId, sequence));
      next.set(threadId, sequence + 1);
    }
    if (round === 0) process.stdout.write('ready\n');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
