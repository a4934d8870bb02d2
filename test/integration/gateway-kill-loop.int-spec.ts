import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileThreadStore } from '../../src/threads/file-thread-store';
import { answersTo, interruptsOf, readThread, resumeInput } from '../support/interrupt-helpers';
import { runInput } from '../support/run-input';
import { eventually, postRun, type SseResponse } from '../support/sse-client';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { startKernelUpstream, type KernelUpstream } from '../support/start-kernel-upstream';
import { runCommand } from '../deploy/support/run-command';

const REPO_ROOT = path.join(__dirname, '../..');
const MAIN = path.join(REPO_ROOT, 'dist/main.js');
/** Kill/restart cycles; AGUI_KILL_CYCLES raises it for a longer torture run. */
const CYCLES = Number(process.env.AGUI_KILL_CYCLES ?? 4);
const ALLOW = { decision: 'allow_once' };

/**
 * The built service (`node dist/main.js`, file store, an external scripted kernel that outlives it) is
 * SIGKILLed while runs and answers are in flight, then started again on the same state directory. After each
 * restart: every state file loads, no thread is stuck busy, every run id that was admitted is refused when
 * reused, and no answer reached the kernel twice. The service is built first when dist/ is missing.
 */
describe('SIGKILL and restart of the gateway process', () => {
  let upstream: KernelUpstream;
  let stateDir: string;
  let child: ServiceProcess | undefined;
  let url = '';

  beforeAll(async () => {
    if (!existsSync(MAIN)) {
      const build = await runCommand('npm', ['run', 'build'], {
        cwd: REPO_ROOT,
        env: process.env,
        timeoutMs: 150_000,
      });
      if (build.code !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
    }
    upstream = await startKernelUpstream();
    stateDir = await mkdtemp(path.join(os.tmpdir(), 'agui-kill-loop-'));
  }, 200_000);
  afterAll(async () => {
    await child?.close();
    await upstream?.close();
    await rm(stateDir, { recursive: true, force: true });
  });

  async function startService(): Promise<void> {
    child = await startServiceProcess(path.join(REPO_ROOT, 'dist'), {
      IAC_CODE_AGUI_A2A_URL: upstream.url,
      IAC_CODE_AGUI_STATE_DIR: stateDir,
      IAC_CODE_AGUI_ALLOWED_CWDS: os.tmpdir(),
      IAC_CODE_AGUI_INTERRUPT_TTL: '0',
    });
    url = child.url;
  }

  /** SIGKILL, and wait until the process is gone. */
  const killService = async (): Promise<void> => child?.close();

  /** A request that may be cut by the kill: its answer, or undefined when the connection died. */
  const attempt = (body: unknown): Promise<SseResponse | undefined> =>
    postRun(url, body).catch(() => undefined);

  it('keeps every invariant across kills at random moments', async () => {
    const admitted: unknown[] = [];
    const touchedThreads = new Set<string>();
    await startService();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      // One parked interrupt per cycle, answered while the kill comes; plain turns on a few threads besides.
      const parkedThread = `parked-${cycle}`;
      const parkedRun = runInput({ threadId: parkedThread, runId: `ask-${cycle}`, text: 'permission' });
      const asked = await postRun(url, parkedRun);
      expect(interruptsOf(asked.events)?.map((interrupt) => interrupt.id)).toEqual(['permission-1']);
      admitted.push(parkedRun);
      const answer = resumeInput(parkedThread, `answer-${cycle}`, [
        { interruptId: 'permission-1', status: 'resolved', payload: ALLOW },
      ]);
      const turns = [0, 1, 2].map((k) =>
        runInput({ threadId: `turns-${k}`, runId: `turn-${cycle}-${k}`, text: 'slow' }),
      );
      for (const turn of turns) touchedThreads.add(turn.threadId);
      touchedThreads.add(parkedThread);

      const inFlight = [answer, ...turns].map(async (body) => {
        const response = await attempt(body);
        if (response?.status === 200) admitted.push(body);
      });
      // Kill at a different moment each cycle: right away, mid-admission, mid-stream.
      await new Promise((resolve) => setTimeout(resolve, 40 + ((cycle * 397) % 900)));
      await killService();
      await Promise.all(inFlight);
      await startService();

      // No state file is torn or unreadable.
      const store = new FileThreadStore(stateDir);
      for (const threadId of touchedThreads) {
        if (existsSync(store.pathForThread(threadId)))
          await expect(store.load(threadId)).resolves.toBeDefined();
      }
      const files = (await readdir(path.join(stateDir, 'threads'))).filter((name) => name.endsWith('.json'));
      expect(files.length).toBeGreaterThan(0);

      // No thread is stuck busy: a new turn on each is admitted, or asks for the pending answer first.
      for (const threadId of touchedThreads) {
        const probe = await postRun(
          url,
          runInput({ threadId, runId: `probe-${cycle}-${threadId}`, text: 'hello' }),
        );
        if (probe.status === 200) expect(probe.events.at(-1)?.type).toBe('RUN_FINISHED');
        else expect(JSON.parse(probe.text).error.code).toBe('RESUME_REQUIRED');
      }

      // Every admitted run id stays used.
      for (const body of admitted) {
        const reused = await postRun(url, body);
        expect(reused.status).toBe(409);
        expect(['DUPLICATE_RUN_ID', 'RUN_ID_CONFLICT']).toContain(JSON.parse(reused.text).error.code);
      }

      // The answer reached the kernel at most once, whether the retry below is needed or not.
      const retry = await postRun(url, { ...answer, runId: `answer-retry-${cycle}` });
      expect([200, 409]).toContain(retry.status);
      const taskId =
        readThread(stateDir, parkedThread).execution.lastTaskId ??
        readThread(stateDir, parkedThread).execution.taskId;
      if (typeof taskId === 'string') {
        const answers = await eventually(
          () => answersTo(upstream, taskId),
          () => true,
        );
        expect(answers.length).toBeLessThanOrEqual(1);
      }
    }
    await killService();
  }, 600_000);
});
