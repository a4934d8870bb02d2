import type { BaseEvent } from '@ag-ui/core';
import { ThreadRegistry } from '../../src/threads/thread-registry';
import { expectConformantEvents } from '../support/agui-conformance';
import { runInput } from '../support/run-input';
import { eventually, openRun, postRun } from '../support/sse-client';
import { useGateway } from '../support/use-gateway';
import { createHash } from 'node:crypto';

const AUTH = { authorization: 'Bearer gateway-token' };
const types = (events: BaseEvent[]): string[] => events.map((e) => e.type);

describe('run path: AG-UI over SSE from a kernel-like A2A upstream', () => {
  const gateway = useGateway({
    upstream: { token: 'kernel-token' },
    env: {
      IAC_CODE_AGUI_A2A_TOKEN: 'kernel-token',
      IAC_CODE_AGUI_AUTH_TOKEN: 'gateway-token',
      IAC_CODE_AGUI_HEARTBEAT_SECONDS: '0.2',
      IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS: '2',
    },
  });

  /** The JSON-RPC `params` of every request the kernel received for one method. */
  const paramsOf = async (method: string) =>
    (await gateway.upstream.requests())
      .filter((entry) => entry.rpcMethod === method)
      .map((entry) => (entry.body as { params: Record<string, unknown> }).params);

  it('translates a normal turn into a conformant AG-UI stream', async () => {
    const response = await postRun(gateway.url, runInput({ threadId: 'normal-1' }), { headers: AUTH });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.text).not.toContain('\r');
    await expectConformantEvents(response.events);
    const seen = types(response.events);
    expect(seen[0]).toBe('RUN_STARTED');
    expect(seen[1]).toBe('CUSTOM');
    expect(seen).toEqual(
      expect.arrayContaining([
        'TEXT_MESSAGE_CONTENT',
        'REASONING_MESSAGE_CONTENT',
        'TOOL_CALL_ARGS',
        'TOOL_CALL_RESULT',
      ]),
    );
    const finished = response.events.at(-1) as BaseEvent & { outcome?: unknown; usage?: unknown[] };
    expect(finished.type).toBe('RUN_FINISHED');
    expect(finished.outcome).toEqual({ type: 'success' });
    expect(finished.usage?.length).toBeGreaterThan(0);
    const session = response.events[1] as BaseEvent & { name: string; value: Record<string, unknown> };
    expect(session.name).toBe('iac-code.session.v1');
    expect(session.value).toMatchObject({
      schemaVersion: 1,
      threadId: 'normal-1',
      aguiRunId: 'run-1',
      rosInvocationId: 'invocation-1',
    });
    expect(typeof session.value.taskId).toBe('string');
    expect(typeof session.value.sessionId).toBe('string');
  });

  it('sends the kernel exactly the A2A message of docs/behaviour/a2a.md#the-message', async () => {
    const input = runInput({
      threadId: 'exact-1',
      text: 'hello exact',
      iacCode: {
        model: ' qwen-max ',
        llmApiKey: ' sk-secret ',
        llmHeaders: { 'X-Provider-Key': 'hdr-exact' },
        thinking: { enabled: true, effort: 'low', budget: 1024 },
        userId: 'user-1',
        runMode: 'normal',
        alibabaCloud: {
          accessKeyId: 'AK',
          accessKeySecret: 'AKS',
          securityToken: 'STS',
          regionId: 'cn-hangzhou',
        },
      },
    });
    const response = await postRun(gateway.url, input, { headers: { ...AUTH, 'accept-language': 'zh-CN' } });
    expect(response.events.at(-1)?.type).toBe('RUN_FINISHED');
    const entries = (await gateway.upstream.requests()).filter((entry) =>
      (JSON.stringify(entry.body) ?? '').includes('hello exact'),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0].rpcMethod).toBe('SendStreamingMessage');
    expect(entries[0].headers['a2a-version']).toBe('1.0');
    expect((entries[0].body as { params: unknown }).params).toEqual({
      message: {
        messageId: 'message-1',
        role: 'ROLE_USER',
        parts: [{ text: 'hello exact' }],
        contextId: 'agui-' + createHash('sha256').update('exact-1').digest('hex').slice(0, 40),
        metadata: {
          iac_code: {
            cwd: expect.any(String),
            iac_code_model: 'qwen-max',
            iac_code_api_key: 'sk-secret',
            thinking: { enabled: true, effort: 'low', budget: 1024 },
            user_id: 'user-1',
            run_mode: 'normal',
            preferredLanguage: 'zh',
            cleanupOnly: false,
            rosInvocationId: 'invocation-1',
            llm_headers: { 'X-Provider-Key': 'hdr-exact' },
            alibaba_cloud_access_key_id: 'AK',
            alibaba_cloud_access_key_secret: 'AKS',
            alibaba_cloud_security_token: 'STS',
            alibaba_cloud_region_id: 'cn-hangzhou',
          },
        },
      },
      configuration: expect.objectContaining({ acceptedOutputModes: ['text/plain'] }),
    });
  });

  it('writes none of the request secrets or tokens into any log line', async () => {
    const secrets = ['sk-log-secret', 'AK-LOG-ID', 'AKS-LOG-SECRET', 'STS-LOG-TOKEN', 'HDR-LOG-SECRET'];
    const input = runInput({
      threadId: 'secrets-1',
      text: 'fail',
      iacCode: {
        llmApiKey: secrets[0],
        alibabaCloud: { accessKeyId: secrets[1], accessKeySecret: secrets[2], securityToken: secrets[3] },
        llmHeaders: { 'X-Provider-Key': secrets[4] },
      },
    });
    const response = await postRun(gateway.url, input, { headers: AUTH });
    expect(response.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'A2A_EXECUTION_FAILED' });
    // The run did reach the kernel with the secrets, and the gateway logged the run's outcome…
    expect(JSON.stringify(await gateway.upstream.requests())).toContain(secrets[2]);
    expect(JSON.stringify(await gateway.upstream.requests())).toContain(secrets[4]);
    const logs = gateway.logs.join('\n');
    expect(logs).toContain('A2A_EXECUTION_FAILED');
    // …but no log line holds a secret, a bearer token or the user's text.
    for (const secret of [...secrets, 'gateway-token', 'kernel-token']) expect(logs).not.toContain(secret);
  });

  it('closes every open span before RUN_ERROR when the upstream drops mid-stream', async () => {
    // The kernel drops only once the gateway has sent all three spans' starts: on a busy machine a timer
    // could let the drop overtake frames the gateway had not read yet.
    await gateway.upstream.armHolds();
    const run = openRun(gateway.url, runInput({ threadId: 'drop-1', text: 'drop' }), { headers: AUTH });
    await run.waitForEvent((event) => event.type === 'TOOL_CALL_START');
    await gateway.upstream.releaseHolds();
    const response = await run.finished;
    await expectConformantEvents(response.events);
    const seen = types(response.events);
    const error = response.events.at(-1) as BaseEvent & { code: string; message: string };
    expect(error).toEqual({
      type: 'RUN_ERROR',
      code: 'A2A_UNAVAILABLE',
      message: 'The local A2A execution service is unavailable.',
      timestamp: expect.any(Number),
    });
    for (const [open, close] of [
      ['TEXT_MESSAGE_START', 'TEXT_MESSAGE_END'],
      ['REASONING_START', 'REASONING_END'],
      ['TOOL_CALL_START', 'TOOL_CALL_END'],
    ]) {
      expect(seen).toContain(open);
      expect(seen.indexOf(close)).toBeGreaterThan(seen.indexOf(open));
      expect(seen.indexOf(close)).toBeLessThan(seen.length - 1);
    }
  });

  it.each([
    { script: 'rpc-error', code: 'A2A_UNAVAILABLE' },
    { script: 'http-500', code: 'A2A_UNAVAILABLE' },
    { script: 'fail', code: 'A2A_EXECUTION_FAILED' },
  ])('ends with RUN_ERROR $code when the upstream answers $script', async ({ script, code }) => {
    const response = await postRun(gateway.url, runInput({ threadId: `err-${script}`, text: script }), {
      headers: AUTH,
    });
    expect(response.status).toBe(200);
    await expectConformantEvents(response.events);
    expect(response.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code });
  });

  it('writes a heartbeat comment during silence, which is not an event', async () => {
    const response = await postRun(gateway.url, runInput({ threadId: 'silent-1', text: 'silent' }), {
      headers: AUTH,
      signal: AbortSignal.timeout(900),
    });
    expect(response.comments.filter((line) => line === ': heartbeat').length).toBeGreaterThanOrEqual(2);
    expect(response.text).toMatch(/\n\n: heartbeat\n\n/);
    // Only the run's own events are data records: the heartbeat never becomes one.
    expect(types(response.events).every((type) => type === 'RUN_STARTED' || type === 'CUSTOM')).toBe(true);
    expect(response.text).not.toContain('heartbeat"');
  });

  it('still cancels the A2A task when the client leaves before the task id is known', async () => {
    // The client leaves right after RUN_STARTED, which goes out before the upstream is contacted: the run
    // keeps reading only until a frame names the task, then cancels it.
    const cancelsBefore = (await paramsOf('CancelTask')).length;
    const response = await postRun(gateway.url, runInput({ threadId: 'early-leave-1', text: 'silent' }), {
      headers: AUTH,
      disconnectAfterEvents: 1,
    });
    expect(response.events.map((e) => e.type)).toEqual(['RUN_STARTED']);
    const contextId = 'agui-' + createHash('sha256').update('early-leave-1').digest('hex').slice(0, 40);
    const sent = await eventually(
      async () =>
        (await paramsOf('SendStreamingMessage')).filter(
          (params) => (params.message as { contextId: string }).contextId === contextId,
        ),
      (matches) => matches.length > 0,
    );
    expect(sent).toHaveLength(1);
    // The run made its execution terminal; the task it learned is the one cancelled.
    const state = await eventually(
      async () => gateway.app.get(ThreadRegistry).load('early-leave-1'),
      (loaded) => loaded?.execution.lastTaskId !== null && loaded?.execution.lastTaskId !== undefined,
    );
    const taskId = state?.execution.lastTaskId;
    const cancels = await eventually(
      () => paramsOf('CancelTask'),
      (params) => params.some((p) => p.id === taskId),
    );
    expect(cancels.slice(cancelsBefore).filter((p) => p.id === taskId)).toHaveLength(1);
  });

  it('cancels the A2A task when the client disconnects mid-run', async () => {
    const response = await postRun(gateway.url, runInput({ threadId: 'slow-1', text: 'slow' }), {
      headers: AUTH,
      disconnectAfterEvents: 4,
    });
    const session = response.events.find((e) => (e as { name?: string }).name === 'iac-code.session.v1') as
      (BaseEvent & { value: { taskId: string } }) | undefined;
    expect(session).toBeDefined();
    const cancels = await eventually(
      () => paramsOf('CancelTask'),
      (params) => params.some((p) => p.id === session?.value.taskId),
    );
    expect(cancels.map((p) => p.id)).toContain(session?.value.taskId);
  });
});
