import { THREAD_TEMP_FILE_NAME } from '../../src/threads/thread-file-name';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileThreadStore } from '../../src/threads/file-thread-store';
import { serializeThreadState } from '../../src/threads/thread-state';
import { crashDocument } from './thread-crash-document';

const REPO_ROOT = join(__dirname, '../..');
const NODE = join(REPO_ROOT, 'node_modules/.bin/node');
const WRITER = join(__dirname, 'thread-crash-writer.ts');
const THREADS = ['thread-1', 'Thread-2', 'T'.repeat(120)];
const KILLS = 20;

/** Starts the writer, waits until it has written every thread once, then SIGKILLs it after `delayMs`. */
async function runWriterAndKill(stateDir: string, delayMs: number): Promise<void> {
  const child = spawn(NODE, ['--import', 'tsx', WRITER, stateDir, ...THREADS], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
  });
  // A timer on purpose: the kill must land at an arbitrary point of the writer's loop.
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  child.kill('SIGKILL');
  await exited;
}

describe('FileThreadStore under SIGKILL (docs/behaviour/state.md#atomic-writes atomic replace)', () => {
  let stateDir: string;
  beforeAll(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'agui-crash-'));
  });
  afterAll(() => rm(stateDir, { recursive: true, force: true }));

  it('leaves every thread file whole after each kill: the old document or a newer one, never torn', async () => {
    const store = new FileThreadStore(stateDir);
    const lastSeen = new Map<string, number>(THREADS.map((id) => [id, -1]));
    for (let kill = 0; kill < KILLS; kill++) {
      await runWriterAndKill(stateDir, Math.floor(Math.random() * 40));
      for (const threadId of THREADS) {
        const text = await readFile(store.pathForThread(threadId), 'utf8');
        const sequence = (JSON.parse(text) as { crashSequence: number }).crashSequence;
        // Byte-equal to what the writer would have written for that sequence: complete, not torn.
        expect(text).toBe(serializeThreadState(crashDocument(threadId, sequence)));
        expect(sequence).toBeGreaterThanOrEqual(lastSeen.get(threadId) ?? -1);
        await expect(store.load(threadId)).resolves.toEqual(crashDocument(threadId, sequence));
        lastSeen.set(threadId, sequence);
      }
    }
    // Each run writes every thread at least once before it can be killed.
    for (const threadId of THREADS) expect(lastSeen.get(threadId)).toBeGreaterThanOrEqual(KILLS - 1);
    // Temp files a kill left behind are never mistaken for state: only the three stems are .json files.
    const names = await readdir(join(stateDir, 'threads'));
    expect(names.filter((name) => name.endsWith('.json')).sort()).toEqual(
      THREADS.map((id) => store.pathForThread(id).split('/').pop()).sort(),
    );
    expect(names.every((name) => name.endsWith('.json') || THREAD_TEMP_FILE_NAME.test(name))).toBe(true);
  }, 180_000);
});
