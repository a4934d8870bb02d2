import type { BaseEvent } from '@ag-ui/core';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AguiError } from '../../src/common/agui-error';
import { ErrorCode } from '../../src/common/error-code';
import { FileThreadStore } from '../../src/threads/file-thread-store';
import { THREAD_STORE, type ThreadStore } from '../../src/threads/thread-store';
import { canonicalDigest } from '../../src/wire/canonical-digest';
import { useGateway } from '../support/use-gateway';
import { expectConformantEvents } from '../support/agui-conformance';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';

type SessionValue = { executionId: string; contextId: string; taskId: string; sessionId: string };

const sessionOf = (events: BaseEvent[]): SessionValue =>
  (
    events.find((e) => (e as { name?: string }).name === 'iac-code.session.v1') as unknown as {
      value: SessionValue;
    }
  ).value;

/** Durable threads through the real app: restarts share one state directory (docs/behaviour/state.md). */
describe('thread state survives restarts', () => {
  let stateDir: string;
  // Every gateway of a test shares the test's state directory, as a restarted service would.
  const gateways = useGateway({
    upstream: true,
    env: () => ({ IAC_CODE_AGUI_STATE_DIR: stateDir }),
    startBeforeAll: false,
  });
  const start = (configure?: Parameters<typeof gateways.start>[1]) => gateways.start({}, configure);
  const stateFile = (threadId: string) => path.join(stateDir, 'threads', `${threadId}.json`);
  const readState = (threadId: string) => JSON.parse(readFileSync(stateFile(threadId), 'utf8'));

  beforeEach(() => {
    stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-threads-'));
  });

  it('answers DUPLICATE_RUN_ID and RUN_ID_CONFLICT after a restart, and rotates the execution on a new turn', async () => {
    const first = await start();
    const input = runInput({ threadId: 'restart-1', runId: 'run-1' });
    const run1 = await postRun(first.url, input);
    expect(run1.events.at(-1)?.type).toBe('RUN_FINISHED');
    const session1 = sessionOf(run1.events);
    await first.close();

    const second = await start();
    const replay = await postRun(second.url, input);
    expect(replay.status).toBe(409);
    expect(JSON.parse(replay.text).error.code).toBe('DUPLICATE_RUN_ID');
    const conflict = await postRun(
      second.url,
      runInput({ threadId: 'restart-1', runId: 'run-1', text: 'other' }),
    );
    expect(JSON.parse(conflict.text).error.code).toBe('RUN_ID_CONFLICT');

    const run2 = await postRun(
      second.url,
      runInput({ threadId: 'restart-1', runId: 'run-2', text: 'again' }),
    );
    expect(run2.events.at(-1)?.type).toBe('RUN_FINISHED');
    const session2 = sessionOf(run2.events);
    expect(session2.contextId).toBe(session1.contextId);
    expect(session2.sessionId).toBe(session1.sessionId);
    expect(session2.executionId).not.toBe(session1.executionId);

    const state = readState('restart-1');
    expect(state.runDigests).toEqual({
      'run-1': canonicalDigest(JSON.stringify(input)),
      'run-2': expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(state.terminalExecutionIds).toEqual(
      expect.arrayContaining([session1.executionId, session2.executionId]),
    );
    expect(state.execution).toMatchObject({
      executionId: session2.executionId,
      taskId: null,
      lastTaskId: session2.taskId,
    });
  });

  it('sends the stored context id, so a thread whose file names another context keeps working', async () => {
    const gateway = await start();
    const template = await postRun(gateway.url, runInput({ threadId: 'context-template', runId: 'run-1' }));
    expect(template.events.at(-1)?.type).toBe('RUN_FINISHED');
    // A thread written by another version (or edited by hand) whose context is not the one its id hashes to:
    // the stored context is the thread's binding, and is never recomputed.
    const written = {
      ...readState('context-template'),
      threadId: 'stored-context',
      contextId: 'agui-stored-elsewhere',
    };
    writeFileSync(stateFile('stored-context'), JSON.stringify({ ...written, iacCodeSessionId: null }));

    const run = await postRun(
      gateway.url,
      runInput({ threadId: 'stored-context', runId: 'run-2', text: 'a turn on the stored context' }),
    );
    await expectConformantEvents(run.events);
    expect(run.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(sessionOf(run.events).contextId).toBe('agui-stored-elsewhere');
    const sent = (await gateways.upstream.requests()).filter((entry) =>
      JSON.stringify(entry.body ?? null).includes('a turn on the stored context'),
    );
    expect(
      sent.map(
        (entry) => (entry.body as { params: { message: { contextId: string } } }).params.message.contextId,
      ),
    ).toEqual(['agui-stored-elsewhere']);
  });

  it('keeps thread B working when thread A has a corrupt file', async () => {
    const gateway = await start();
    expect((await postRun(gateway.url, runInput({ threadId: 'thread-a' }))).status).toBe(200);
    await gateway.close();
    writeFileSync(stateFile('thread-a'), '{"schemaVersion": 1, "threadId": ');

    const restarted = await start();
    const a = await postRun(restarted.url, runInput({ threadId: 'thread-a', runId: 'run-2' }));
    expect(a.status).toBe(503);
    expect(JSON.parse(a.text)).toEqual({
      error: { code: 'STATE_UNAVAILABLE', message: 'The AG-UI adapter state is unavailable.' },
    });
    const b = await postRun(restarted.url, runInput({ threadId: 'thread-b' }));
    expect(b.status).toBe(200);
    expect(b.events.at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('stores no message text, credential or token, with owner-only modes', async () => {
    const gateway = await start();
    const secrets = [
      'the user message text 7c1',
      'sk-state-secret',
      'AK-STATE-ID',
      'AKS-STATE',
      'STS-STATE',
      'qwen-secret-model',
      'HDR-STATE-SECRET',
    ];
    const input = runInput({
      threadId: 'secrets-thread',
      text: secrets[0],
      iacCode: {
        llmApiKey: secrets[1],
        model: secrets[5],
        thinking: { enabled: true, budget: 2048 },
        alibabaCloud: { accessKeyId: secrets[2], accessKeySecret: secrets[3], securityToken: secrets[4] },
        llmHeaders: { 'X-Provider-Key': secrets[6] },
      },
    });
    expect((await postRun(gateway.url, input)).events.at(-1)?.type).toBe('RUN_FINISHED');
    const files = readdirSync(path.join(stateDir, 'threads'));
    expect(files).toEqual(['secrets-thread.json']);
    const text = readFileSync(stateFile('secrets-thread'), 'utf8');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(stateDir, 'threads')).mode & 0o777).toBe(0o700);
    expect(statSync(stateFile('secrets-thread')).mode & 0o777).toBe(0o600);
  });

  it('cancels the A2A task and ends with STATE_PERSISTENCE_FAILED when the task mapping cannot be written', async () => {
    let saves = 0;
    const gateway = await start((builder) =>
      builder.overrideProvider(THREAD_STORE).useFactory({
        factory: (): ThreadStore => {
          const real = new FileThreadStore(stateDir);
          return {
            load: (threadId) => real.load(threadId),
            checkReady: () => real.checkReady(),
            // The first save is admission; the second records the new A2A task id (persist before announce).
            save: (state) =>
              ++saves === 2
                ? Promise.reject(new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable'))
                : real.save(state),
          };
        },
      }),
    );
    const response = await postRun(gateway.url, runInput({ threadId: 'write-fail' }));
    expect(response.events.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(response.events[1]).toMatchObject({
      code: 'STATE_PERSISTENCE_FAILED',
      message: 'The execution mapping could not be committed.',
    });
    const cancels = await eventually(
      async () => (await gateways.upstream.requests()).filter((entry) => entry.rpcMethod === 'CancelTask'),
      (entries) => entries.length > 0,
    );
    expect(cancels.length).toBeGreaterThan(0);
  });

  it('marks the execution terminal when the client disconnects mid-run', async () => {
    const gateway = await start();
    const response = await postRun(gateway.url, runInput({ threadId: 'disconnect-1', text: 'slow' }), {
      disconnectAfterEvents: 4,
    });
    const session = sessionOf(response.events);
    const state = await eventually(
      async () => readState('disconnect-1'),
      (s) => s.terminalExecutionIds.includes(session.executionId),
    );
    expect(state.execution).toMatchObject({ taskId: null, lastTaskId: session.taskId });
    expect(state.terminalExecutionIds).toContain(session.executionId);
  });
});
