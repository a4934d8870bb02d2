import type { BaseEvent } from '@ag-ui/core';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunningGateway } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';
import { ScriptedA2aGateway } from '../support/fakes/scripted-a2a-gateway';
import { A2A_GATEWAY } from '../../src/a2a/a2a-gateway';
import type { A2aFrame, A2aOutgoingMessage } from '../../src/wire/a2a-wire';
import { statusFrame } from '../../src/demo-kernel/kernel-frames';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';

type SessionValue = { executionId: string; taskId: string };

/**
 * A kernel that keeps a task's stream open after CancelTask (it answers the cancel, then says nothing
 * more): the stream ends only when the gateway lets go of it, so only the gateway can end such a run.
 */
class StreamKeepingKernel extends ScriptedA2aGateway {
  override async *sendStreamingMessage(
    message: A2aOutgoingMessage,
    signal?: AbortSignal,
  ): AsyncIterable<A2aFrame> {
    yield statusFrame(
      { taskId: 'kept-task', contextId: message.contextId, sessionId: 'session-kept' },
      'TASK_STATE_WORKING',
    );
    await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
  }
}

const sessionOf = (events: BaseEvent[]): SessionValue | undefined =>
  (
    events.find((e) => (e as { name?: string }).name === 'iac-code.session.v1') as unknown as {
      value: SessionValue;
    }
  )?.value;

/** The cancel extension (docs/behaviour/cancel.md#cancel-route, docs/behaviour/cancel.md#cancel-route) with the stricter error statuses. */
describe('POST /extensions/iac-code/v1/executions/:executionId/cancel', () => {
  let stateDir: string;
  // Every gateway of a test shares the test's state directory, as a restarted service would.
  const gateways = useGateway({
    upstream: true,
    env: () => ({ IAC_CODE_AGUI_STATE_DIR: stateDir, IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS: '1' }),
    startBeforeAll: false,
  });
  const start = () => gateways.start();
  const cancel = (
    gateway: RunningGateway,
    executionId: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${gateway.url}extensions/iac-code/v1/executions/${encodeURIComponent(executionId)}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const cancelRequests = async () =>
    (await gateways.upstream.requests())
      .filter((entry) => entry.rpcMethod === 'CancelTask')
      .map((entry) => (entry.body as { params: { id: string } }).params.id);

  /** The execution and task bound on disk for a thread, once the run has persisted its task id (docs/behaviour/state.md#persist-before-announce). */
  const boundExecution = (threadId: string): SessionValue | undefined => {
    try {
      const { execution } = JSON.parse(
        readFileSync(path.join(stateDir, 'threads', `${threadId}.json`), 'utf8'),
      );
      return execution.taskId ? { executionId: execution.executionId, taskId: execution.taskId } : undefined;
    } catch {
      return undefined;
    }
  };

  /** Starts a run that stays open and waits until its task is bound (persisted before it is announced). */
  const startOpenRun = async (
    gateway: RunningGateway,
    threadId: string,
    script = 'silent',
    runId = 'run-1',
  ) => {
    const controller = new AbortController();
    const response = postRun(gateway.url, runInput({ threadId, runId, text: script }), {
      signal: controller.signal,
    });
    const session = await eventually(
      async () => boundExecution(threadId),
      (bound) => bound !== undefined,
    );
    if (!session) throw new Error(`run on ${threadId} never bound a task`);
    return { session, response, abort: () => controller.abort() };
  };

  beforeEach(() => {
    stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-cancel-'));
  });

  it('cancels an active run: CancelTask upstream, 200 cancelled, and the stream ends with RUN_ERROR CANCELLED', async () => {
    const gateway = await start();
    const { session, response } = await startOpenRun(gateway, 'cancel-active');
    const answer = await cancel(gateway, session.executionId, {
      threadId: 'cancel-active',
      rosInvocationId: 'invocation-1',
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ executionId: session.executionId, status: 'cancelled' });
    const run = await response;
    expect(run.events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'CANCELLED',
      message: 'The execution was cancelled.',
    });
    expect(await cancelRequests()).toContain(session.taskId);
    // The same execution again: it is terminal now.
    const again = await cancel(gateway, session.executionId, {
      threadId: 'cancel-active',
      rosInvocationId: 'invocation-1',
    });
    expect(await again.json()).toEqual({ executionId: session.executionId, status: 'already_terminal' });
  });

  it('ends the active run at once, without waiting for the kernel to end its stream', async () => {
    const kernel = new StreamKeepingKernel();
    const gateway = await gateways.start({}, (builder) =>
      builder.overrideProvider(A2A_GATEWAY).useValue(kernel),
    );
    const { session, response } = await startOpenRun(gateway, 'cancel-kept');
    const answer = await cancel(gateway, session.executionId, {
      threadId: 'cancel-kept',
      rosInvocationId: 'invocation-1',
    });
    expect(answer.status).toBe(200);
    expect(kernel.cancelledTaskIds).toEqual(['kept-task']);
    const run = await response;
    expect(run.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
  });

  it.each([
    { name: 'a client still reading', env: {} },
    { name: 'a reattach window (the run goes on detached)', env: { IAC_CODE_AGUI_REATTACH_SECONDS: '30' } },
  ])(
    'with $name: the thread takes the next run as soon as the cancel answers, never THREAD_BUSY',
    async ({ env }) => {
      const gateway = await gateways.start(env);
      const threadId = `cancel-then-next-${Object.keys(env).length}`;
      for (let turn = 1; turn <= 5; turn++) {
        const { session, response } = await startOpenRun(gateway, threadId, 'silent', `run-${turn}`);
        const answer = await cancel(gateway, session.executionId, {
          threadId,
          rosInvocationId: 'invocation-1',
        });
        expect(answer.status).toBe(200);
        // At once, as CopilotKit's next prompt after Stop: no retry, no wait.
        const next = await postRun(gateway.url, runInput({ threadId, runId: `run-next-${turn}` }));
        expect(next.status).toBe(200);
        expect(next.events.at(-1)?.type).toBe('RUN_FINISHED');
        expect((await response).events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'CANCELLED' });
      }
    },
  );

  it.each([
    { script: 'silent', status: 200 },
    { script: 'hang-cancel', status: 502 },
  ])(
    'works after a restart from the persisted task binding ($script → $status)',
    async ({ script, status }) => {
      const threadId = `cancel-restart-${script}`;
      const first = await start();
      const { session, abort, response } = await startOpenRun(first, threadId, script);
      // A crash leaves the live execution on disk: keep the file as it is now, stop the instance (whose
      // disconnect handling would make the execution terminal), and put the crash-time file back.
      const file = path.join(stateDir, 'threads', `${threadId}.json`);
      const crashTimeState = readFileSync(file);
      abort();
      await response;
      await eventually(
        async () => boundExecution(threadId),
        (bound) => bound === undefined,
      );
      await first.close();
      writeFileSync(file, crashTimeState);
      const second = await start();
      const countCancels = async () => (await cancelRequests()).filter((id) => id === session.taskId).length;
      const cancelsBefore = await countCancels();
      const answer = await cancel(second, session.executionId, { threadId, rosInvocationId: 'invocation-1' });
      expect(answer.status).toBe(status);
      expect(await countCancels()).toBe(cancelsBefore + 1);
      if (status === 200) {
        expect(await answer.json()).toEqual({ executionId: session.executionId, status: 'cancelled' });
        expect(boundExecution(threadId)).toBeUndefined();
      } else {
        // A kernel that never answers CancelTask: bounded, 502, and nothing changed so the caller can retry.
        expect(await answer.json()).toEqual({
          error: { code: 'A2A_UNAVAILABLE', message: 'The local A2A execution service is unavailable.' },
        });
        expect(boundExecution(threadId)).toEqual(session);
      }
    },
  );

  it.each([
    {
      name: 'an unknown thread',
      executionId: 'nope',
      body: { threadId: 'never-seen', rosInvocationId: 'invocation-1' },
    },
    {
      name: 'an unknown execution',
      executionId: 'nope',
      body: { threadId: 'known-thread', rosInvocationId: 'invocation-1' },
    },
  ])('answers 404 EXECUTION_NOT_FOUND for $name', async ({ executionId, body }) => {
    const gateway = await start();
    await postRun(gateway.url, runInput({ threadId: 'known-thread' }));
    const answer = await cancel(gateway, executionId, body);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      error: { code: 'EXECUTION_NOT_FOUND', message: 'The execution was not found.' },
    });
  });

  it('answers 404 when the rosInvocationId is not the execution’s, and leaves the run alone', async () => {
    const gateway = await start();
    const { session, abort, response } = await startOpenRun(gateway, 'cancel-owner');
    const answer = await cancel(gateway, session.executionId, {
      threadId: 'cancel-owner',
      rosInvocationId: 'someone-else',
    });
    expect(answer.status).toBe(404);
    expect(await cancelRequests()).not.toContain(session.taskId);
    abort();
    await response;
  });

  it('answers already_terminal for an execution that finished', async () => {
    const gateway = await start();
    const run = await postRun(gateway.url, runInput({ threadId: 'finished-thread' }));
    const session = sessionOf(run.events) as SessionValue;
    const answer = await cancel(gateway, session.executionId, {
      threadId: 'finished-thread',
      rosInvocationId: 'invocation-1',
    });
    expect(await answer.json()).toEqual({ executionId: session.executionId, status: 'already_terminal' });
  });

  it('answers 503 STATE_UNAVAILABLE with Retry-After for an unreadable thread file (docs/behaviour/http.md#error-envelope)', async () => {
    const gateway = await start();
    await postRun(gateway.url, runInput({ threadId: 'corrupt-thread' }));
    await gateway.close();
    writeFileSync(path.join(stateDir, 'threads', 'corrupt-thread.json'), '{');
    const restarted = await start();
    const answer = await cancel(restarted, 'x', {
      threadId: 'corrupt-thread',
      rosInvocationId: 'invocation-1',
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('STATE_UNAVAILABLE');
  });

  it.each([
    {
      name: 'wrong media type',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Content-Type must be application/json.',
    },
    {
      name: 'body over 64 KiB',
      body: JSON.stringify({ threadId: 't', rosInvocationId: 'r', pad: 'x'.repeat(70 * 1024) }),
      status: 413,
      code: 'REQUEST_TOO_LARGE',
      message: 'The cancel request body is too large.',
    },
    {
      name: 'invalid JSON',
      body: '{',
      status: 400,
      code: 'INVALID_JSON',
      message: 'The cancel request body is not valid JSON.',
    },
    {
      name: 'not an object',
      body: '[]',
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The cancel request must be a JSON object.',
    },
    {
      name: 'missing rosInvocationId',
      body: { threadId: 't' },
      status: 400,
      code: 'INVALID_INPUT',
      message: 'threadId and rosInvocationId are required.',
    },
    {
      name: 'empty threadId',
      body: { threadId: '', rosInvocationId: 'r' },
      status: 400,
      code: 'INVALID_INPUT',
      message: 'threadId and rosInvocationId are required.',
    },
  ])('answers $status $code for $name', async ({ headers, body, status, code, message }) => {
    const gateway = await start();
    const answer = await cancel(gateway, 'exec-1', body, headers);
    expect(answer.status).toBe(status);
    expect(await answer.json()).toEqual({ error: { code, message } });
  });
});
