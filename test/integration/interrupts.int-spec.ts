import type { BaseEvent } from '@ag-ui/core';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AguiError } from '../../src/common/agui-error';
import { CLOCK } from '../../src/common/clock';
import { ErrorCode } from '../../src/common/error-code';
import { FileThreadStore } from '../../src/threads/file-thread-store';
import { THREAD_STORE, type ThreadStore } from '../../src/threads/thread-store';
import { expectConformantEvents } from '../support/agui-conformance';
import { FakeClock } from '../support/fakes/fake-clock';
import {
  answersTo,
  interruptsOf,
  paramsOf,
  postResume,
  readThread,
  typesOf,
  type Json,
} from '../support/interrupt-helpers';
import { runInput } from '../support/run-input';
import { eventually, postRun } from '../support/sse-client';
import type { RunningGateway } from '../support/start-gateway';
import { useGateway } from '../support/use-gateway';

const ALLOW = { decision: 'allow_once' };
const resolved = (interruptId: string, payload: unknown = ALLOW) => ({
  interruptId,
  status: 'resolved',
  payload,
});

type Session = { executionId: string; taskId: string; sessionId: string };
const sessionOf = (events: BaseEvent[]): Session | undefined =>
  (
    events.find((e) => (e as { name?: string }).name === 'iac-code.session.v1') as unknown as {
      value: Session;
    }
  )?.value;

/** Human in the loop end to end : docs/behaviour/interrupts.md, docs/behaviour/cancel.md#cancel-route, against the kernel-like process. */
describe('interrupts and resume', () => {
  let stateDir: string;
  // Every gateway of a test shares the test's state directory, as a restarted service would.
  const gateways = useGateway({
    upstream: true,
    env: () => ({ IAC_CODE_AGUI_STATE_DIR: stateDir }),
    startBeforeAll: false,
  });
  const start = (configure?: Parameters<typeof gateways.start>[1], env: Record<string, string> = {}) =>
    gateways.start(env, configure);

  /** Runs `script` on a new thread and returns its interrupt run, checked for conformance. */
  const interruptRun = async (gateway: RunningGateway, threadId: string, script = 'permission') => {
    const response = await postRun(gateway.url, runInput({ threadId, runId: 'run-1', text: script }));
    await expectConformantEvents(response.events);
    const interrupts = interruptsOf(response.events);
    if (!interrupts) throw new Error(`no interrupt: ${typesOf(response.events).join(',')}`);
    return { events: response.events, interrupts, session: sessionOf(response.events) as Session };
  };

  beforeEach(async () => {
    stateDir = mkdtempSync(path.join(os.tmpdir(), 'agui-interrupts-'));
    await gateways.upstream.clearFaults();
    await gateways.upstream.setEnsureRestoredMode('current');
  });

  it('ends at a durable permission interrupt, then sends the exact DataPart to the same task', async () => {
    const gateway = await start();
    const { interrupts, session } = await interruptRun(gateway, 'perm-1');
    expect(interrupts).toHaveLength(1);
    const [interrupt] = interrupts;
    expect(interrupt).toMatchObject({
      id: 'permission-1',
      reason: 'tool_call',
      message: 'Run a local shell command. Allow once?',
      responseSchema: {
        type: 'object',
        properties: { decision: { type: 'string', enum: ['allow_once', 'deny'] } },
        required: ['decision'],
        additionalProperties: false,
      },
      metadata: {
        schemaVersion: 1,
        kind: 'permission',
        requestTaskId: session.taskId,
        standardOptions: [
          { id: 'allow_once', title: 'Allow once' },
          { id: 'deny', title: 'Deny' },
        ],
      },
    });
    expect(typeof interrupt.toolCallId).toBe('string');
    // Seed expiry: now + 540 s by default.
    const expiresIn = Date.parse(interrupt.expiresAt as string) - Date.now();
    expect(expiresIn).toBeGreaterThan(530_000);
    expect(expiresIn).toBeLessThanOrEqual(540_000);
    // Durable before the terminal event, and nothing was cancelled (docs/behaviour/cancel.md#client-disconnect).
    const parked = readThread(stateDir, 'perm-1');
    expect(Object.keys(parked.execution.pending)).toEqual(['permission-1']);
    expect(parked.execution.pending['permission-1'].expiresAt).toBe(interrupt.expiresAt);
    expect(parked.execution.taskId).toBe(session.taskId);
    expect(await paramsOf(gateways.upstream, 'CancelTask')).not.toContainEqual({ id: session.taskId });

    const resumed = await postResume(gateway.url, 'perm-1', 'run-2', [resolved('permission-1')]);
    await expectConformantEvents(resumed.events);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(sessionOf(resumed.events)).toMatchObject({
      executionId: session.executionId,
      taskId: session.taskId,
    });
    const answers = (await answersTo(gateways.upstream, session.taskId)).filter(
      (m) => m.messageId !== undefined,
    );
    expect(answers).toEqual([
      expect.objectContaining({
        messageId: 'agui-resume-run-2-permission-1',
        role: 'ROLE_USER',
        taskId: session.taskId,
        contextId: parked.contextId,
        parts: [
          {
            data: {
              schemaVersion: 1,
              kind: 'permission',
              requestTaskId: session.taskId,
              inputId: 'permission-1',
              toolUseId: interrupt.toolCallId,
              decision: 'allow_once',
            },
            mediaType: 'application/json',
          },
        ],
      }),
    ]);
    const done = readThread(stateDir, 'perm-1');
    expect(done.execution.pending).toEqual({});
    expect(done.appliedResumeDigests).toEqual([
      {
        executionId: session.executionId,
        interruptId: 'permission-1',
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(done.terminalExecutionIds).toContain(session.executionId);
  });

  it('refuses an invalid payload without sending anything, and accepts the corrected one', async () => {
    const gateway = await start();
    const { session } = await interruptRun(gateway, 'perm-invalid');
    const invalid = await postResume(gateway.url, 'perm-invalid', 'run-2', [
      resolved('permission-1', { decision: 'allow' }),
    ]);
    expect(typesOf(invalid.events)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(invalid.events[1]).toMatchObject({
      code: 'RESUME_PAYLOAD_INVALID',
      message: 'The interrupt response payload is invalid.',
    });
    expect(await answersTo(gateways.upstream, session.taskId)).toEqual([]);
    expect(Object.keys(readThread(stateDir, 'perm-invalid').execution.pending)).toEqual(['permission-1']);

    const corrected = await postResume(gateway.url, 'perm-invalid', 'run-3', [resolved('permission-1')]);
    expect(corrected.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(readThread(stateDir, 'perm-invalid').execution.pending).toEqual({});
  });

  it.each([
    {
      name: 'an empty answer stream',
      fault: { method: 'SendStreamingMessage', mode: 'empty-stream' as const },
      code: 'A2A_UNAVAILABLE',
      message: 'The A2A permission response was not accepted.',
    },
    {
      name: 'a JSON-RPC error frame',
      fault: { method: 'SendStreamingMessage', mode: 'rpc-error' as const },
      code: 'A2A_UNAVAILABLE',
      message: 'The local A2A execution service rejected the interrupt response.',
    },
    {
      name: 'a retryable backup-not-ready error',
      fault: {
        method: 'SendStreamingMessage',
        mode: 'rpc-error' as const,
        error: { code: -32603, message: 'busy', data: { code: 'SESSION_BACKUP_NOT_READY', retryable: true } },
      },
      code: 'SESSION_BACKUP_NOT_READY',
      message: 'Session backup is still synchronizing. Retry after 3 seconds.',
    },
    {
      name: 'an HTTP 500 before the first frame',
      fault: { method: 'SendStreamingMessage', mode: 'http-500' as const },
      code: 'A2A_UNAVAILABLE',
      message: 'The local A2A execution service is unavailable.',
    },
  ])('keeps the interrupt pending and retryable after $name', async ({ fault, code, message }) => {
    const gateway = await start();
    const threadId = `perm-fault-${fault.mode}-${code}`;
    const { session } = await interruptRun(gateway, threadId);
    await gateways.upstream.injectFault({ ...fault, times: 1 });
    const failed = await postResume(gateway.url, threadId, 'run-2', [resolved('permission-1')]);
    await expectConformantEvents(failed.events);
    expect(failed.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code, message });
    expect(sessionOf(failed.events)).toBeUndefined();
    expect(Object.keys(readThread(stateDir, threadId).execution.pending)).toEqual(['permission-1']);
    expect(await paramsOf(gateways.upstream, 'CancelTask')).not.toContainEqual({ id: session.taskId });

    const retried = await postResume(gateway.url, threadId, 'run-3', [resolved('permission-1')]);
    expect(retried.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(sessionOf(retried.events)).toMatchObject({ taskId: session.taskId });
  });

  it.each([
    {
      name: 'a JSON-RPC error',
      mode: 'rpc-error' as const,
      message: 'The local A2A execution service rejected the interrupt response.',
    },
    {
      name: 'an HTTP 500',
      mode: 'http-500' as const,
      message: 'The local A2A execution service is unavailable.',
    },
  ])(
    'keeps a sideband permission pending when its SendMessage answer is $name',
    async ({ mode, message }) => {
      const threadId = `sideband-${mode}`;
      const gateway = await start();
      const { interrupts, session } = await interruptRun(gateway, threadId, 'pipeline');
      expect(interrupts.map((interrupt) => interrupt.id)).toEqual(['permission-1']);
      expect(readThread(stateDir, threadId).execution.pending['permission-1'].sideband).toBe(true);
      await gateways.upstream.injectFault({ method: 'SendMessage', mode, times: 1 });
      const failed = await postResume(gateway.url, threadId, 'run-2', [resolved('permission-1')]);
      expect(failed.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'A2A_UNAVAILABLE', message });
      expect(Object.keys(readThread(stateDir, threadId).execution.pending)).toEqual(['permission-1']);
      expect(await paramsOf(gateways.upstream, 'CancelTask')).not.toContainEqual(
        expect.objectContaining({ id: session.taskId }),
      );
      const retried = await postResume(gateway.url, threadId, 'run-3', [resolved('permission-1')]);
      await expectConformantEvents(retried.events);
      expect(retried.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(
        (await paramsOf(gateways.upstream, 'SendMessage')).filter((p) => p.message.taskId === session.taskId),
      ).toHaveLength(2);
    },
  );

  it('keeps the interrupt when the client leaves while its answer is still unanswered by A2A', async () => {
    const HELD_ANSWER_MS = 1500;
    const gateway = await start();
    const { session } = await interruptRun(gateway, 'perm-leave');
    // A2A holds the answer back for a while (then fails it): the client leaves in between.
    await gateways.upstream.injectFault({
      method: 'SendStreamingMessage',
      mode: 'rpc-error',
      times: 1,
      delayMs: HELD_ANSWER_MS,
    });
    const left = await postResume(
      gateway.url,
      'perm-leave',
      'run-2',
      [resolved('permission-1')],
      {},
      {
        signal: AbortSignal.timeout(400),
      },
    );
    expect(typesOf(left.events)).toEqual(['RUN_STARTED']);
    // A timer on purpose: the gateway logs nothing for a run whose client left and the scripted kernel
    // reports nothing when it answers, so the only "event" is the hold running out; look after it.
    await new Promise((resolve) => setTimeout(resolve, HELD_ANSWER_MS + 300));
    const state = readThread(stateDir, 'perm-leave');
    expect(Object.keys(state.execution.pending)).toEqual(['permission-1']);
    expect(state.execution.taskId).toBe(session.taskId);
    expect(state.terminalExecutionIds).not.toContain(session.executionId);
    expect(await paramsOf(gateways.upstream, 'CancelTask')).not.toContainEqual(
      expect.objectContaining({ id: session.taskId }),
    );
    const retried = await postResume(gateway.url, 'perm-leave', 'run-3', [resolved('permission-1')]);
    expect(retried.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('stops at the session restore preflight when the backup is not ready, sending nothing', async () => {
    const gateway = await start();
    const { session } = await interruptRun(gateway, 'perm-restore');
    await gateways.upstream.setEnsureRestoredMode('not-ready-once');
    const before = (await gateways.upstream.requests()).length;
    const failed = await postResume(gateway.url, 'perm-restore', 'run-2', [resolved('permission-1')]);
    expect(failed.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'SESSION_BACKUP_NOT_READY' });
    const after = (await gateways.upstream.requests()).slice(before);
    expect(after.map((entry) => entry.path)).toEqual(['/iac-code/session/ensure-restored']);
    expect(after[0].body).toEqual({
      cwd: readThread(stateDir, 'perm-restore').cwd,
      sessionId: session.sessionId,
      taskId: session.taskId,
    });
    expect(Object.keys(readThread(stateDir, 'perm-restore').execution.pending)).toEqual(['permission-1']);
  });

  it('answers EXECUTION_LOST when the kernel cannot restore the session, before GetTask', async () => {
    const gateway = await start();
    await interruptRun(gateway, 'perm-lost');
    await gateways.upstream.setEnsureRestoredMode('unsupported');
    const before = (await gateways.upstream.requests()).length;
    const failed = await postResume(gateway.url, 'perm-lost', 'run-2', [resolved('permission-1')]);
    expect(failed.events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'EXECUTION_LOST',
      message: 'The iac-code session to resume is unavailable.',
    });
    expect((await gateways.upstream.requests()).slice(before).map((entry) => entry.path)).toEqual([
      '/iac-code/session/ensure-restored',
    ]);
  });

  /* docs/behaviour/a2a.md#kernel-failures: a healthy kernel that no longer has the task. */
  it('answers EXECUTION_LOST when GetTask says the task is not found, as the real kernel does (-32001)', async () => {
    const gateway = await start();
    await interruptRun(gateway, 'perm-forgotten');
    // The real iac-code 0.16 answer to GetTask of an id it does not have (after a restart with a fresh
    // state directory): HTTP 200 and this JSON-RPC error.
    await gateways.upstream.injectFault({
      method: 'GetTask',
      mode: 'rpc-error',
      error: {
        code: -32001,
        message: 'Task not found',
        data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' }],
      },
    });
    const failed = await postResume(gateway.url, 'perm-forgotten', 'run-2', [resolved('permission-1')]);
    expect(failed.events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'EXECUTION_LOST',
      message: 'The A2A task to resume is unavailable.',
    });
    expect(Object.keys(readThread(stateDir, 'perm-forgotten').execution.pending)).toEqual(['permission-1']);
  });

  it('refuses incomplete, duplicate, unknown, wrong-owner and repeated resumes, sending one DataPart in all', async () => {
    const gateway = await start();
    const { session } = await interruptRun(gateway, 'perm-rules');
    const refusals = [
      {
        resume: [],
        code: 'INCOMPLETE_RESUME',
        message: 'The resume must resolve every pending interrupt exactly once.',
      },
      {
        resume: [resolved('permission-1'), resolved('permission-1')],
        code: 'INCOMPLETE_RESUME',
        message: 'The resume contains duplicate interrupt ids.',
      },
      {
        resume: [resolved('permission-1'), resolved('nope')],
        code: 'UNKNOWN_INTERRUPT',
        message: 'The resume references an unknown interrupt.',
      },
      {
        resume: [{ interruptId: 'permission-1', status: 'resolved' }],
        code: 'RESUME_PAYLOAD_INVALID',
        message: 'A resolved interrupt requires a payload.',
      },
    ];
    for (const [index, { resume, code, message }] of refusals.entries()) {
      const refused = await postResume(gateway.url, 'perm-rules', `run-refused-${index}`, resume);
      expect({ index, last: refused.events.at(-1) }).toMatchObject({
        index,
        last: { type: 'RUN_ERROR', code, message },
      });
    }
    const otherOwner = await postResume(gateway.url, 'perm-rules', 'run-owner', [resolved('permission-1')], {
      rosInvocationId: 'someone-else',
    });
    expect(otherOwner.status).toBe(409);
    expect(JSON.parse(otherOwner.text).error).toEqual({
      code: 'EXECUTION_LOST',
      message: 'The resume request does not match the interrupted run.',
    });
    expect(await answersTo(gateways.upstream, session.taskId)).toEqual([]);

    const accepted = await postResume(gateway.url, 'perm-rules', 'run-ok', [resolved('permission-1')]);
    expect(accepted.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const replay = await postResume(gateway.url, 'perm-rules', 'run-replay', [resolved('permission-1')]);
    expect(replay.events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'RESUME_ALREADY_APPLIED',
      message: 'The interrupt response has already been applied.',
    });
    expect(await answersTo(gateways.upstream, session.taskId)).toHaveLength(1);
  });

  it('sends a question answer as text to the same task and closes the question tool once', async () => {
    const gateway = await start();
    const { interrupts, session } = await interruptRun(gateway, 'question-1', 'question');
    const [question] = interrupts;
    expect(question).toMatchObject({ id: 'question-1', reason: 'input_required' });
    const schema = question.responseSchema as Json;
    expect(schema.oneOf).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          properties: expect.objectContaining({ selectedId: expect.objectContaining({ const: 'plan-b' }) }),
        }),
      ]),
    );
    const resumed = await postResume(gateway.url, 'question-1', 'run-2', [
      resolved('question-1', { selectedId: 'plan-b' }),
    ]);
    await expectConformantEvents(resumed.events);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const answers = await answersTo(gateways.upstream, session.taskId);
    expect(answers).toEqual([
      expect.objectContaining({
        messageId: 'agui-resume-run-2',
        taskId: session.taskId,
        parts: [{ text: 'Plan B' }],
      }),
    ]);
    const results = resumed.events.filter(
      (e) =>
        e.type === 'TOOL_CALL_RESULT' && (e as { toolCallId?: string }).toolCallId === question.toolCallId,
    );
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ content: 'Plan B' });
  });

  it('ends with RUN_ERROR CANCELLED and cancels the task when a question is cancelled (docs/behaviour/interrupts.md#forwarding-answers)', async () => {
    const gateway = await start();
    const { session } = await interruptRun(gateway, 'question-cancel', 'question');
    const resumed = await postResume(gateway.url, 'question-cancel', 'run-2', [
      { interruptId: 'question-1', status: 'cancelled' },
    ]);
    expect(resumed.events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'CANCELLED',
      message: 'The execution was cancelled by the interrupt response.',
    });
    expect(await paramsOf(gateways.upstream, 'CancelTask')).toContainEqual(
      expect.objectContaining({ id: session.taskId }),
    );
    expect(readThread(stateDir, 'question-cancel').execution.pending).toEqual({});
  });

  it('answers a permission on a fresh instance after a restart, once, in the preflight order', async () => {
    const first = await start();
    const { session } = await interruptRun(first, 'perm-restart');
    await first.close();
    const second = await start();
    const before = (await gateways.upstream.requests()).length;
    const resumed = await postResume(second.url, 'perm-restart', 'run-2', [resolved('permission-1')]);
    await expectConformantEvents(resumed.events);
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const calls = (await gateways.upstream.requests())
      .slice(before)
      .map((entry) => entry.rpcMethod ?? entry.path.split('?')[0])
      .filter((call) => call !== '/.well-known/agent-card.json');
    expect(calls.slice(0, 4)).toEqual([
      '/iac-code/session/ensure-restored',
      'GetTask',
      '/iac-code/pipeline/state',
      'SendStreamingMessage',
    ]);
    // The published adapter sends the protocol version on every call, the extension routes included.
    const versions = (await gateways.upstream.requests())
      .slice(before)
      .map((entry) => [entry.rpcMethod ?? entry.path.split('?')[0], entry.headers['a2a-version']]);
    expect(versions.filter(([, version]) => version !== '1.0')).toEqual([]);
    expect(await answersTo(gateways.upstream, session.taskId)).toHaveLength(1);
    expect(sessionOf(resumed.events)).toMatchObject({
      executionId: session.executionId,
      sessionId: session.sessionId,
    });
    const cancelled = await fetch(
      `${second.url}extensions/iac-code/v1/executions/${session.executionId}/cancel`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId: 'perm-restart', rosInvocationId: 'invocation-1' }),
      },
    );
    expect(await cancelled.json()).toEqual({ executionId: session.executionId, status: 'already_terminal' });
  });

  it('answers a direct and a sideband permission together; answering one of them is INCOMPLETE_RESUME', async () => {
    const gateway = await start();
    const { interrupts } = await interruptRun(gateway, 'two-1', 'two-permissions');
    expect(interrupts.map((i) => i.id).sort()).toEqual(['permission-1', 'permission-2']);
    const state = readThread(stateDir, 'two-1');
    expect(state.execution.pending['permission-2'].sideband).toBe(true);
    const partial = await postResume(gateway.url, 'two-1', 'run-2', [resolved('permission-1')]);
    expect(partial.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'INCOMPLETE_RESUME' });
    const both = await postResume(gateway.url, 'two-1', 'run-3', [
      resolved('permission-1'),
      resolved('permission-2'),
    ]);
    await expectConformantEvents(both.events);
    expect(both.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(readThread(stateDir, 'two-1').execution.pending).toEqual({});
  });

  it('cancels the task and emits no interrupt when the interrupt cannot be persisted', async () => {
    const gateway = await start((builder) =>
      builder.overrideProvider(THREAD_STORE).useFactory({
        factory: (): ThreadStore => {
          const real = new FileThreadStore(stateDir);
          return {
            load: (threadId) => real.load(threadId),
            checkReady: () => real.checkReady(),
            save: (state) =>
              Object.keys(state.execution.pending).length > 0
                ? Promise.reject(new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable'))
                : real.save(state),
          };
        },
      }),
    );
    const response = await postRun(
      gateway.url,
      runInput({ threadId: 'perm-write-fail', text: 'permission' }),
    );
    await expectConformantEvents(response.events);
    expect(interruptsOf(response.events)).toBeUndefined();
    expect(response.events.at(-1)).toMatchObject({
      type: 'RUN_ERROR',
      code: 'STATE_PERSISTENCE_FAILED',
      message: 'The interrupted execution state could not be committed.',
    });
    const taskId = sessionOf(response.events)?.taskId as string;
    const cancels = await eventually(
      () => paramsOf(gateways.upstream, 'CancelTask'),
      (params) => params.some((p) => p.id === taskId),
    );
    expect(cancels.map((p) => p.id)).toContain(taskId);
  });

  describe('interrupt expiry with an injected clock (raw HTTP: HttpAgent refuses to send past expiresAt itself)', () => {
    const clock = new FakeClock();
    const startWithClock = () => start((builder) => builder.overrideProvider(CLOCK).useValue(clock));

    it('refuses a resume after expiresAt with EXECUTION_EXPIRED, cancels the task, then admits a new turn', async () => {
      const gateway = await startWithClock();
      const { interrupts, session } = await interruptRun(gateway, 'expiry-1');
      expect(Date.parse(interrupts[0].expiresAt as string)).toBe(clock.now() + 540_000);
      clock.advance(541_000);
      const expired = await postResume(gateway.url, 'expiry-1', 'run-2', [resolved('permission-1')]);
      expect(expired.events.at(-1)).toMatchObject({
        type: 'RUN_ERROR',
        code: 'EXECUTION_EXPIRED',
        message: 'The interrupted execution has expired.',
      });
      const cancels = await eventually(
        () => paramsOf(gateways.upstream, 'CancelTask'),
        (params) => params.some((p) => p.id === session.taskId),
      );
      expect(cancels.map((p) => p.id)).toContain(session.taskId);
      expect(await answersTo(gateways.upstream, session.taskId)).toEqual([]);
      const state = readThread(stateDir, 'expiry-1');
      expect(state.execution.pending).toEqual({});
      expect(state.execution.endReason).toBe('expired');
      expect(state.terminalExecutionIds).toContain(session.executionId);
      // Asked again, the answer stays the same: the execution is recorded as expired, not merely gone.
      const again = await postResume(gateway.url, 'expiry-1', 'run-2b', [resolved('permission-1')]);
      expect(again.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'EXECUTION_EXPIRED' });
      const next = await postRun(gateway.url, runInput({ threadId: 'expiry-1', runId: 'run-3' }));
      expect(next.status).toBe(200);
      expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
      expect(readThread(stateDir, 'expiry-1').execution).not.toHaveProperty('endReason');
    });

    it('finishes a resume that cancels an interrupt after expiresAt, cancelling the task and sending no answer', async () => {
      const gateway = await startWithClock();
      const { session } = await interruptRun(gateway, 'expiry-cancelled');
      clock.advance(541_000);
      const given = await postResume(gateway.url, 'expiry-cancelled', 'run-2', [
        { interruptId: 'permission-1', status: 'cancelled' },
      ]);
      await expectConformantEvents(given.events);
      expect(typesOf(given.events)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
      expect(given.events.at(-1)).toMatchObject({ outcome: { type: 'success' } });
      const cancels = await eventually(
        () => paramsOf(gateways.upstream, 'CancelTask'),
        (params) => params.some((p) => p.id === session.taskId),
      );
      expect(cancels.map((p) => p.id)).toContain(session.taskId);
      expect(await answersTo(gateways.upstream, session.taskId)).toEqual([]);
      const state = readThread(stateDir, 'expiry-cancelled');
      expect(state.execution.pending).toEqual({});
      expect(state.terminalExecutionIds).toContain(session.executionId);
    });

    it('admits a new turn after a restart once the interrupt has expired, cancelling the old task', async () => {
      const first = await startWithClock();
      const { session } = await interruptRun(first, 'expiry-restart');
      await first.close();
      const refused = await postRun(
        (await startWithClock()).url,
        runInput({ threadId: 'expiry-restart', runId: 'run-2' }),
      );
      expect(refused.status).toBe(409);
      expect(JSON.parse(refused.text).error.code).toBe('RESUME_REQUIRED');
      clock.advance(541_000);
      const third = await startWithClock();
      const next = await postRun(third.url, runInput({ threadId: 'expiry-restart', runId: 'run-3' }));
      expect(next.status).toBe(200);
      expect(next.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
      const cancels = await eventually(
        () => paramsOf(gateways.upstream, 'CancelTask'),
        (params) => params.some((p) => p.id === session.taskId),
      );
      expect(cancels.map((p) => p.id)).toContain(session.taskId);
      expect(readThread(stateDir, 'expiry-restart').terminalExecutionIds).toContain(session.executionId);
    });
  });

  it('expires a parked interrupt on time for a thread in memory (timer, real clock)', async () => {
    const gateway = await start(undefined, { IAC_CODE_AGUI_INTERRUPT_TTL: '1' });
    const { session } = await interruptRun(gateway, 'expiry-timer');
    const state = await eventually(
      async () => readThread(stateDir, 'expiry-timer'),
      (s) => Object.keys(s.execution.pending).length === 0,
      4000,
    );
    expect(state.execution.pending).toEqual({});
    expect(state.execution.endReason).toBe('expired');
    expect(state.terminalExecutionIds).toContain(session.executionId);
    expect((await paramsOf(gateways.upstream, 'CancelTask')).map((p) => p.id)).toContain(session.taskId);
    // A resume after the timer fired gets the same code as one that finds the interrupt expired itself,
    // in this process and after a restart.
    const expired = {
      type: 'RUN_ERROR',
      code: 'EXECUTION_EXPIRED',
      message: 'The interrupted execution has expired.',
    };
    const late = await postResume(gateway.url, 'expiry-timer', 'run-2', [resolved('permission-1')]);
    expect(late.events.at(-1)).toMatchObject(expired);
    await gateway.close();
    const restarted = await start(undefined, { IAC_CODE_AGUI_INTERRUPT_TTL: '1' });
    const afterRestart = await postResume(restarted.url, 'expiry-timer', 'run-3', [resolved('permission-1')]);
    expect(afterRestart.events.at(-1)).toMatchObject(expired);
    expect(await answersTo(gateways.upstream, session.taskId)).toEqual([]);
  });

  it('omits expiresAt when IAC_CODE_AGUI_INTERRUPT_TTL=0', async () => {
    const gateway = await start(undefined, { IAC_CODE_AGUI_INTERRUPT_TTL: '0' });
    const { interrupts } = await interruptRun(gateway, 'no-expiry');
    expect(interrupts[0]).not.toHaveProperty('expiresAt');
    expect(readThread(stateDir, 'no-expiry').execution.pending['permission-1']).not.toHaveProperty(
      'expiresAt',
    );
  });
});
