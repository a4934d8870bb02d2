import { randomUUID } from 'node:crypto';
import { Message, SendMessageRequest, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { eventually } from '../support/sse-client';
import { startKernelUpstream, type KernelUpstream } from '../support/start-kernel-upstream';
import type { Json } from '../support/interrupt-helpers';

/**
 * The scripted kernel stops for the user as the iac-code kernel does (docs/behaviour/a2a.md#the-kernels-own-behaviour, "Permission answers are checked strictly", "Extension routes"): permission and question
 * interrupts, a direct + sideband pair, a Pipeline with a sideband permission and its recovery route,
 * session restore, and the faults resume tests inject.
 */

const TOKEN = 'kernel-interrupts-token';

let upstream: KernelUpstream;

beforeAll(async () => {
  upstream = await startKernelUpstream({ token: TOKEN });
});

afterAll(async () => {
  await upstream?.close();
});

afterEach(async () => {
  await upstream.clearFaults();
  await upstream.setEnsureRestoredMode('current');
});

// ---- raw wire helpers -------------------------------------------------------------------------------

function post(method: string, params: Json, id: string | number = randomUUID()): Promise<Response> {
  return fetch(upstream.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0', Authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
}

const userText = (text: string, task?: Task): Json => ({
  message: {
    messageId: randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text }],
    ...(task ? { taskId: task.id, contextId: task.contextId } : {}),
  },
});

/** Parses a CRLF-framed SSE body into its `data:` records. */
function framesOf(raw: string): Json[] {
  return raw
    .split('\r\n\r\n')
    .filter((part) => part.startsWith('data: '))
    .map((part) => JSON.parse(part.slice(6)) as Json);
}

async function streamFrames(method: string, params: Json): Promise<Json[]> {
  const response = await post(method, params);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return framesOf(await response.text()); // resolves only because the stream closes
}

async function rpcJson(method: string, params: Json): Promise<Json> {
  const response = await post(method, params);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  return (await response.json()) as Json;
}

const stateOf = (frame: Json): string | undefined =>
  frame.result?.task?.status?.state ?? frame.result?.statusUpdate?.status?.state;
const iacCodeOf = (frame: Json): Json => frame.result?.statusUpdate?.metadata?.iac_code ?? {};
const textOf = (frame: Json): string | undefined =>
  frame.result?.statusUpdate?.status?.message?.parts?.[0]?.text;

/** One label per frame, so a whole stream reads as a line. */
function labelOf(frame: Json): string {
  if (frame.error) return `error:${frame.error.code}`;
  if (frame.result.task) return `task:${frame.result.task.status.state.replace('TASK_STATE_', '')}`;
  const iacCode = iacCodeOf(frame);
  const state = (stateOf(frame) ?? '').replace('TASK_STATE_', '');
  if (iacCode.assistantFinal) return 'final';
  if (iacCode.tool) return `tool:${iacCode.tool.status}`;
  if (iacCode.input || iacCode.pendingPermissions) {
    const ids = [iacCode.input?.inputId, ...(iacCode.pendingPermissions ?? []).map((p: Json) => p.inputId)];
    return `${state}:${ids.filter(Boolean).join('+')}`;
  }
  if (textOf(frame) !== undefined) return 'text';
  return state;
}

interface Task {
  readonly id: string;
  readonly contextId: string;
  readonly sessionId: string;
}

/** Starts a task with `text`, reads its first stream to the end, and returns the task and the frames. */
async function startTask(text: string): Promise<{ task: Task; frames: Json[] }> {
  const frames = await streamFrames('SendStreamingMessage', userText(text));
  const opened = frames[0].result.task as Json;
  const sessionId = iacCodeOf(frames[1]).iacCodeSessionId as string;
  return { task: { id: opened.id, contextId: opened.contextId, sessionId }, frames };
}

/** The answer the gateway sends for a permission (docs/behaviour/interrupts.md#forwarding-answers), as a SendMessage params object. */
function permissionAnswer(task: Task, input: Json, decision: string): Json {
  return {
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      taskId: task.id,
      contextId: task.contextId,
      parts: [
        {
          data: {
            schemaVersion: 1,
            kind: 'permission',
            requestTaskId: task.id,
            inputId: input.inputId,
            toolUseId: input.toolUseId,
            decision,
          },
          mediaType: 'application/json',
        },
      ],
    },
    configuration: { acceptedOutputModes: ['text/plain'] },
  };
}

/** The permission value of docs/behaviour/interrupts.md#from-input-required-to-interrupts, for this task. */
function expectedPermission(task: Task, overrides: Json = {}): Json {
  return {
    schemaVersion: 1,
    kind: 'permission',
    requestTaskId: task.id,
    contextId: task.contextId,
    inputId: 'permission-1',
    toolUseId: `${task.id}-tool-1`,
    toolName: 'bash',
    title: 'Run a local shell command',
    purpose: 'Execute a command for this task.',
    effect: 'local_execution',
    target: 'the current workspace',
    isReadOnly: false,
    prompt: 'Run a local shell command. Allow once?',
    safeSummary: 'bash: pwd',
    options: [
      { id: 'allow_once', label: 'Allow once' },
      { id: 'deny', label: 'Deny' },
    ],
    required: true,
    ...overrides,
  };
}

async function getTask(task: Task): Promise<Json> {
  return (await rpcJson('GetTask', { id: task.id })).result as Json;
}

/** The task's state once the SDK's store caught up with the stream (it saves after publishing). */
async function settledStateOf(task: Task, expected = 'TASK_STATE_COMPLETED'): Promise<string> {
  return eventually(
    async () => (await getTask(task)).status.state as string,
    (state) => state === expected,
  );
}

/** The journal entries of messages sent to `task`. */
async function messagesTo(task: Task): Promise<Json[]> {
  const entries = await upstream.requests();
  return entries
    .filter((entry) => (entry.body as Json | undefined)?.params?.message?.taskId === task.id)
    .map((entry) => ({
      method: entry.rpcMethod,
      headers: entry.headers,
      message: (entry.body as Json).params.message,
    }));
}

// ---- permission -------------------------------------------------------------------------------------

describe('permission', () => {
  it('text, a bash tool start, then INPUT_REQUIRED with the permission value; the stream closes', async () => {
    const { task, frames } = await startTask('permission');
    expect(frames.map(labelOf)).toEqual([
      'task:SUBMITTED',
      'SUBMITTED',
      'WORKING',
      'text',
      'tool:started',
      'INPUT_REQUIRED:permission-1',
    ]);
    const last = frames[frames.length - 1];
    expect(iacCodeOf(last)).toEqual({ iacCodeSessionId: task.sessionId, input: expectedPermission(task) });
    expect(last.result.statusUpdate.status.message).toBeUndefined();
    expect(iacCodeOf(frames[4]).tool).toEqual({
      status: 'started',
      toolUseId: `${task.id}-tool-1`,
      name: 'bash',
    });
  });

  it('GetTask shows the waiting permission in metadata.iac_code.input', async () => {
    const { task } = await startTask('permission');
    const snapshot = await getTask(task);
    expect(snapshot.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(snapshot.metadata.iac_code).toEqual({
      iacCodeSessionId: task.sessionId,
      input: expectedPermission(task),
    });
  });

  describe('strict answer check', () => {
    let task: Task;
    let input: Json;
    const malformed: { name: string; change: (params: Json) => void }[] = [
      { name: 'role ROLE_AGENT', change: (p) => (p.message.role = 'ROLE_AGENT') },
      { name: 'a text part instead', change: (p) => (p.message.parts = [{ text: 'allow_once' }]) },
      { name: 'two parts', change: (p) => p.message.parts.push({ text: 'and more' }) },
      { name: 'no mediaType', change: (p) => delete p.message.parts[0].mediaType },
      { name: 'mediaType text/plain', change: (p) => (p.message.parts[0].mediaType = 'text/plain') },
      { name: 'an extra data key', change: (p) => (p.message.parts[0].data.contextId = task.contextId) },
      { name: 'a missing data key', change: (p) => delete p.message.parts[0].data.schemaVersion },
      { name: 'schemaVersion 2', change: (p) => (p.message.parts[0].data.schemaVersion = 2) },
      { name: 'kind question', change: (p) => (p.message.parts[0].data.kind = 'question') },
      {
        name: 'requestTaskId of another task',
        change: (p) => (p.message.parts[0].data.requestTaskId = 'other'),
      },
      { name: 'another contextId', change: (p) => (p.message.contextId = 'other-context') },
      { name: 'another toolUseId', change: (p) => (p.message.parts[0].data.toolUseId = 'tool-x') },
      { name: 'an unknown inputId', change: (p) => (p.message.parts[0].data.inputId = 'permission-9') },
      { name: 'decision allow', change: (p) => (p.message.parts[0].data.decision = 'allow') },
    ];

    beforeAll(async () => {
      const started = await startTask('permission');
      task = started.task;
      input = iacCodeOf(started.frames[started.frames.length - 1]).input as Json;
    });

    it.each(malformed)('$name → JSON-RPC -32602 before any stream', async ({ change }) => {
      const params = permissionAnswer(task, input, 'allow_once');
      change(params);
      const response = await post('SendStreamingMessage', params, 'answer-1');
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = (await response.json()) as Json;
      expect(body).toEqual({
        jsonrpc: '2.0',
        id: 'answer-1',
        error: { code: -32602, message: expect.stringMatching(/^Invalid params: /) },
      });
    });

    it('after every refusal the task still waits; the exact answer is accepted and the tool runs', async () => {
      const before = await getTask(task);
      expect(before.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(before.metadata.iac_code.input.inputId).toBe('permission-1');

      const exact = permissionAnswer(task, input, 'allow_once');
      const frames = await streamFrames('SendStreamingMessage', exact);
      // The first frame of a continuation is the stored INPUT_REQUIRED snapshot (docs/behaviour/a2a.md#sdk-notes).
      expect(frames.map(labelOf)).toEqual([
        'task:INPUT_REQUIRED',
        'WORKING',
        'tool:completed',
        'text',
        'text',
        'final',
        'INPUT_REQUIRED',
      ]);
      expect(iacCodeOf(frames[2]).tool).toEqual({
        status: 'completed',
        toolUseId: `${task.id}-tool-1`,
        name: 'bash',
        result: '/workspace',
      });
      expect(frames.slice(3, 5).map(textOf).join('')).toBe('The command ran. The workspace is /workspace.');
      expect(iacCodeOf(frames[frames.length - 1]).input).toBeUndefined();

      const sent = await messagesTo(task);
      expect(sent).toHaveLength(malformed.length + 1);
      const accepted = sent[sent.length - 1];
      expect(accepted.method).toBe('SendStreamingMessage');
      expect(accepted.headers['a2a-version']).toBe('1.0');
      expect(accepted.message.parts).toEqual([
        {
          data: {
            schemaVersion: 1,
            kind: 'permission',
            requestTaskId: task.id,
            inputId: 'permission-1',
            toolUseId: `${task.id}-tool-1`,
            decision: 'allow_once',
          },
          mediaType: 'application/json',
        },
      ]);
    });

    it('once answered and the turn finished, the snapshot still shows the answered input, as the kernel does', async () => {
      const snapshot = await getTask(task);
      expect(snapshot.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      // The kernel merges status metadata into its stored task and drops `input` only while the task is not
      // INPUT_REQUIRED: back at INPUT_REQUIRED after the turn, GetTask lists the answered permission again.
      expect(snapshot.metadata.iac_code).toEqual({ iacCodeSessionId: task.sessionId, input });
      // It is not pending for all that: answering it again is only acknowledged as a duplicate.
      const repeat = await streamFrames('SendStreamingMessage', permissionAnswer(task, input, 'allow_once'));
      expect(iacCodeOf(repeat[0]).inputReceived).toMatchObject({ inputId: input.inputId, duplicate: true });
    });
  });

  it('the same answer again gets one duplicate inputReceived frame and the stream ends; another decision is refused', async () => {
    const { task, frames } = await startTask('permission');
    const input = iacCodeOf(frames[frames.length - 1]).input as Json;
    await streamFrames('SendStreamingMessage', permissionAnswer(task, input, 'allow_once'));
    const before = await getTask(task);

    const repeat = await streamFrames('SendStreamingMessage', permissionAnswer(task, input, 'allow_once'));
    const conflicting = await rpcJson('SendStreamingMessage', permissionAnswer(task, input, 'deny'));

    expect(repeat).toHaveLength(1);
    expect(repeat[0].result.statusUpdate).toMatchObject({
      taskId: task.id,
      status: { state: 'TASK_STATE_WORKING' },
    });
    expect(iacCodeOf(repeat[0])).toEqual({
      iacCodeSessionId: task.sessionId,
      inputReceived: {
        kind: 'permission',
        inputId: input.inputId,
        toolUseId: input.toolUseId,
        decision: 'allow_once',
        recovered: true,
        duplicate: true,
      },
    });
    expect(conflicting.error).toEqual({
      code: -32602,
      message: 'permission_resume_invalid: permission decision conflicts with receipt.',
    });
    // Neither reached the task: it is exactly as the first answer left it.
    expect(await getTask(task)).toEqual(before);
  });

  it('deny: the tool fails with a denial text and the turn finishes', async () => {
    const { task, frames } = await startTask('permission');
    const input = iacCodeOf(frames[frames.length - 1]).input as Json;
    const resumed = await streamFrames('SendStreamingMessage', permissionAnswer(task, input, 'deny'));
    expect(resumed.map(labelOf)).toEqual([
      'task:INPUT_REQUIRED',
      'WORKING',
      'tool:failed',
      'text',
      'final',
      'INPUT_REQUIRED',
    ]);
    expect(iacCodeOf(resumed[2]).tool.result).toBe('Permission denied: the user did not allow this command.');
    expect(textOf(resumed[3])).toBe('I did not run the command, as you asked.');
  });

  it('CancelTask of a waiting task answers CANCELED at once; a late answer is then refused by the SDK', async () => {
    const { task, frames } = await startTask('permission');
    const input = iacCodeOf(frames[frames.length - 1]).input as Json;
    const cancelled = await rpcJson('CancelTask', { id: task.id });
    expect(cancelled.result.status.state).toBe('TASK_STATE_CANCELED');
    const late = await rpcJson('SendStreamingMessage', permissionAnswer(task, input, 'allow_once'));
    expect(late.error.code).toBe(-32004);
  });
});

// ---- question ---------------------------------------------------------------------------------------

describe('question', () => {
  it('INPUT_REQUIRED with an ask_user_question; a text answer continues the turn and is echoed', async () => {
    const { task, frames } = await startTask('question');
    expect(frames.map(labelOf)).toEqual([
      'task:SUBMITTED',
      'SUBMITTED',
      'WORKING',
      'text',
      'tool:started',
      'INPUT_REQUIRED:question-1',
    ]);
    expect(iacCodeOf(frames[frames.length - 1]).input).toEqual({
      schemaVersion: 1,
      kind: 'ask_user_question',
      requestTaskId: task.id,
      contextId: task.contextId,
      inputId: 'question-1',
      toolUseId: `${task.id}-tool-1`,
      prompt: 'Which plan should I use?',
      options: [
        { id: 'plan-a', label: 'Plan A' },
        { id: 'plan-b', label: 'Plan B' },
      ],
      allowFreeText: true,
      required: true,
    });

    const resumed = await streamFrames('SendStreamingMessage', userText('Plan B', task));
    expect(resumed.map(labelOf)).toEqual([
      'task:INPUT_REQUIRED',
      'WORKING',
      'tool:completed',
      'text',
      'text',
      'final',
      'INPUT_REQUIRED',
    ]);
    expect(iacCodeOf(resumed[2]).tool).toMatchObject({ name: 'ask_user_question', result: 'Plan B' });
    expect(textOf(resumed[3])).toBe('You chose: Plan B. ');
  });

  it.each([
    { name: 'an empty text', parts: [{ text: '   ' }] },
    { name: 'a DataPart', parts: [{ data: { answer: 'Plan A' }, mediaType: 'application/json' }] },
    { name: 'a URL part', parts: [{ url: 'https://example.com/plan', mediaType: 'text/plain' }] },
  ])('refuses $name with -32602; free text is then accepted', async ({ parts }) => {
    const { task } = await startTask('question');
    const bad = userText('', task);
    bad.message.parts = parts;
    expect((await rpcJson('SendStreamingMessage', bad)).error.code).toBe(-32602);
    const resumed = await streamFrames('SendStreamingMessage', userText('a third plan, please', task));
    expect(iacCodeOf(resumed[2]).tool.result).toBe('a third plan, please');
  });
});

// ---- two permissions --------------------------------------------------------------------------------

describe('two-permissions', () => {
  const sidebandOf = (task: Task): Json =>
    expectedPermission(task, {
      inputId: 'permission-2',
      toolUseId: `${task.id}-tool-2`,
      title: 'Run a check for candidate A',
      prompt: 'Run a check for candidate A. Allow once?',
      safeSummary: 'bash: ls',
      scope: 'candidate',
      subPipelineId: `${task.id}-sub-pipeline-1`,
    });

  it('one INPUT_REQUIRED frame: input = permission-1, pendingPermissions = [permission-2]', async () => {
    const { task, frames } = await startTask('two-permissions');
    expect(frames.map(labelOf)).toEqual([
      'task:SUBMITTED',
      'SUBMITTED',
      'WORKING',
      'text',
      'tool:started',
      'tool:started',
      'INPUT_REQUIRED:permission-1+permission-2',
    ]);
    expect(iacCodeOf(frames[frames.length - 1])).toEqual({
      iacCodeSessionId: task.sessionId,
      input: expectedPermission(task),
      pendingPermissions: [sidebandOf(task)],
    });
  });

  it('sideband SendMessage first, then the streaming answer for permission-1 finishes the turn', async () => {
    const { task } = await startTask('two-permissions');
    const sideband = await rpcJson('SendMessage', permissionAnswer(task, sidebandOf(task), 'allow_once'));
    expect(sideband.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(sideband.result.task.metadata.iac_code).toEqual({
      iacCodeSessionId: task.sessionId,
      input: expectedPermission(task),
    });
    // permission-2 is no longer pending: a second answer to it is refused.
    expect((await rpcJson('SendMessage', permissionAnswer(task, sidebandOf(task), 'deny'))).error.code).toBe(
      -32602,
    );

    const frames = await streamFrames(
      'SendStreamingMessage',
      permissionAnswer(task, expectedPermission(task), 'deny'),
    );
    expect(frames.map(labelOf)).toEqual([
      'task:INPUT_REQUIRED',
      'WORKING',
      'tool:failed',
      'text',
      'final',
      'INPUT_REQUIRED',
    ]);
    expect(iacCodeOf(frames[2]).tool.toolUseId).toBe(`${task.id}-tool-1`);
    // The answered direct input stays on the INPUT_REQUIRED task, as on the kernel; nothing is pending.
    expect((await getTask(task)).metadata.iac_code).toEqual({
      iacCodeSessionId: task.sessionId,
      input: expectedPermission(task),
    });

    const sent = await messagesTo(task);
    expect(sent.map((entry) => `${entry.method}:${entry.message.parts[0].data.inputId}`)).toEqual([
      'SendMessage:permission-2',
      'SendMessage:permission-2',
      'SendStreamingMessage:permission-1',
    ]);
  });

  it('streaming answer for permission-1 first ends again at INPUT_REQUIRED with only permission-2', async () => {
    const { task } = await startTask('two-permissions');
    const first = await streamFrames(
      'SendStreamingMessage',
      permissionAnswer(task, expectedPermission(task), 'allow_once'),
    );
    expect(first.map(labelOf)).toEqual([
      'task:INPUT_REQUIRED',
      'WORKING',
      'tool:completed',
      'INPUT_REQUIRED:permission-2',
    ]);
    expect(iacCodeOf(first[3])).toEqual({
      iacCodeSessionId: task.sessionId,
      pendingPermissions: [sidebandOf(task)],
    });

    const second = await rpcJson('SendMessage', permissionAnswer(task, sidebandOf(task), 'allow_once'));
    expect(second.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(second.result.task.metadata.iac_code).toEqual({
      iacCodeSessionId: task.sessionId,
      input: expectedPermission(task),
    });
    expect(second.result.task.status.message).toBeUndefined();
  });
});

// ---- pipeline ---------------------------------------------------------------------------------------

/** Reads a stream until `isDone(frames)`, then stops reading (as the gateway does at an interrupt). */
async function readFramesUntil(response: Response, isDone: (frames: Json[]) => boolean): Promise<Json[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let raw = '';
  while (!isDone(framesOf(raw))) {
    const { done, value } = await reader.read();
    if (done) break;
    raw += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return framesOf(raw);
}

const envelopesOf = (frame: Json): Json[] => {
  const iacCode = iacCodeOf(frame);
  return [...(iacCode.pipelineBatch?.events ?? []), ...(iacCode.pipeline ? [iacCode.pipeline] : [])];
};

async function pipelineState(taskId: string, afterSequence?: number | string): Promise<Response> {
  const query = new URLSearchParams({ taskId });
  if (afterSequence !== undefined) query.set('afterSequence', String(afterSequence));
  return fetch(new URL(`iac-code/pipeline/state?${query}`, upstream.url), {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
}

describe('pipeline', () => {
  let task: Task;
  let live: Json[];

  beforeAll(async () => {
    const response = await post('SendStreamingMessage', userText('pipeline'));
    live = await readFramesUntil(response, (frames) =>
      frames.some((frame) =>
        envelopesOf(frame).some((envelope) => envelope.eventType === 'candidate_step_completed'),
      ),
    );
    const opened = live[0].result.task as Json;
    task = { id: opened.id, contextId: opened.contextId, sessionId: iacCodeOf(live[1]).iacCodeSessionId };
  });

  it('streams envelopes with increasing sequences; candidates interleave; A waits sideband on a WORKING frame', () => {
    const envelopes = live.flatMap(envelopesOf);
    expect(
      envelopes.map(
        (envelope) => `${envelope.sequence}:${envelope.eventType}:${envelope.candidate?.id ?? '-'}`,
      ),
    ).toEqual([
      '1:pipeline_started:-',
      '2:step_started:-',
      '3:candidate_step_started:candidate-a',
      '4:candidate_step_started:candidate-b',
      '5:text_delta:candidate-a',
      '6:text_delta:candidate-b',
      '7:tool_started:candidate-a',
      '8:permission_requested:candidate-a',
      '9:text_delta:candidate-b',
      '10:candidate_step_completed:candidate-b',
    ]);
    expect(envelopes[4]).toEqual({
      eventId: `${task.id}-pipeline-event-5`,
      eventType: 'text_delta',
      sequence: 5,
      scope: 'candidate',
      step: { id: 'generate', runId: 'generate-run-1' },
      candidate: { id: 'candidate-a', runId: 'candidate-a-run-1' },
      candidateStep: { id: 'draft', runId: 'candidate-a-draft-1' },
      data: { text: 'Candidate A drafts a single-zone VPC. ' },
      iacCodeSessionId: task.sessionId,
    });
    expect(envelopes[8].data.text).toBe('candidate B continued while A waited');
    // The two candidate_step_started arrive in one pipelineBatch frame.
    expect(
      live.filter((frame) => iacCodeOf(frame).pipelineBatch).map((frame) => envelopesOf(frame).length),
    ).toEqual([2]);

    const sideband = live.find((frame) => iacCodeOf(frame).pendingPermissions) as Json;
    expect(stateOf(sideband)).toBe('TASK_STATE_WORKING');
    expect(iacCodeOf(sideband).pendingPermissions).toEqual([
      expectedPermission(task, {
        toolUseId: `${task.id}-candidate-a-tool-1`,
        title: 'Run a local check for candidate A',
        prompt: 'Run a local check for candidate A. Allow once?',
        scope: 'candidate',
        subPipelineId: 'candidate-a',
        candidate: { id: 'candidate-a', runId: 'candidate-a-run-1' },
      }),
    ]);
    expect(live.map(stateOf).filter((state) => state !== 'TASK_STATE_WORKING')).toEqual([
      'TASK_STATE_SUBMITTED',
      'TASK_STATE_SUBMITTED',
    ]);
  });

  it('the state route replays what happened, after a sequence; the task keeps WORKING meanwhile', async () => {
    const all = (await (await pipelineState(task.id, 0)).json()) as Json;
    expect(all.snapshot).toEqual({
      pipelineRunId: `${task.id}-pipeline`,
      status: 'running',
      lastSequence: 10,
      iacCodeSessionId: task.sessionId,
    });
    expect(all.events.map((envelope: Json) => envelope.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const after7 = (await (await pipelineState(task.id, 7)).json()) as Json;
    expect(after7.events.map((envelope: Json) => envelope.eventType)).toEqual([
      'permission_requested',
      'text_delta',
      'candidate_step_completed',
    ]);
    const snapshot = await getTask(task);
    expect(snapshot.status.state).toBe('TASK_STATE_WORKING');
    expect(snapshot.metadata.iac_code.pendingPermissions.map((value: Json) => value.inputId)).toEqual([
      'permission-1',
    ]);
  });

  it('a sideband SendMessage answer resumes candidate A; a subscription sees the Pipeline complete', async () => {
    const subscription = post('SubscribeToTask', { id: task.id });
    const value = (await getTask(task)).metadata.iac_code.pendingPermissions[0] as Json;
    const subscribed = await subscription;
    const accepted = await rpcJson('SendMessage', permissionAnswer(task, value, 'allow_once'));
    expect(accepted.result.task.id).toBe(task.id);
    expect(accepted.result.task.status.state).toBe('TASK_STATE_WORKING');

    const frames = framesOf(await subscribed.text());
    expect(frames[0].result.task.status.state).toBe('TASK_STATE_WORKING');
    expect(
      frames
        .slice(1)
        .flatMap(envelopesOf)
        .map((envelope) => `${envelope.sequence}:${envelope.eventType}`),
    ).toEqual([
      '11:tool_result',
      '12:text_delta',
      '13:candidate_step_completed',
      '14:step_completed',
      '15:pipeline_completed',
    ]);
    expect(stateOf(frames[frames.length - 1])).toBe('TASK_STATE_COMPLETED');

    const after10 = (await (await pipelineState(task.id, 10)).json()) as Json;
    expect(after10.snapshot).toMatchObject({ status: 'completed', lastSequence: 15 });
    expect(after10.events[0].data).toEqual({
      toolUseId: `${task.id}-candidate-a-tool-1`,
      result: '/workspace',
      isError: false,
    });
    expect(await settledStateOf(task)).toBe('TASK_STATE_COMPLETED');
  });

  it('a streaming answer to the running turn gets the live events until the task completes', async () => {
    const response = await post('SendStreamingMessage', userText('pipeline'));
    const opened = await readFramesUntil(response, (frames) =>
      frames.some((frame) => iacCodeOf(frame).pendingPermissions),
    );
    const other: Task = {
      id: opened[0].result.task.id,
      contextId: opened[0].result.task.contextId,
      sessionId: '',
    };
    const value = iacCodeOf(opened[opened.length - 1]).pendingPermissions[0] as Json;
    const frames = await streamFrames('SendStreamingMessage', permissionAnswer(other, value, 'deny'));
    expect(frames[0].result.task.id).toBe(other.id);
    const envelopes = frames.flatMap(envelopesOf);
    expect(envelopes.find((envelope) => envelope.eventType === 'tool_result')?.data).toMatchObject({
      isError: true,
    });
    expect(envelopes[envelopes.length - 1].eventType).toBe('pipeline_completed');
    expect(stateOf(frames[frames.length - 1])).toBe('TASK_STATE_COMPLETED');
  });

  it.each([
    { name: 'a task without a Pipeline', taskId: () => 'no-such-task', after: 0, status: 404 },
    { name: 'no afterSequence (means 0)', taskId: () => task.id, after: undefined, status: 200 },
    { name: 'a negative afterSequence', taskId: () => task.id, after: -1, status: 400 },
    { name: 'a non-numeric afterSequence', taskId: () => task.id, after: 'x', status: 400 },
    { name: 'no taskId', taskId: () => '', after: 0, status: 400 },
  ])('state route with $name → $status', async ({ taskId, after, status }) => {
    expect((await pipelineState(taskId(), after)).status).toBe(status);
  });

  it('state route of a task that ran a non-Pipeline script → 404; without the token → 401', async () => {
    const { task: plain } = await startTask('permission');
    expect((await pipelineState(plain.id, 0)).status).toBe(404);
    const anonymous = await fetch(new URL(`iac-code/pipeline/state?taskId=${task.id}`, upstream.url));
    expect(anonymous.status).toBe(401);
  });
});

// ---- session restore --------------------------------------------------------------------------------

function ensureRestored(body: Json, hasToken = true): Promise<Response> {
  return fetch(new URL('iac-code/session/ensure-restored', upstream.url), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(hasToken ? { Authorization: `Bearer ${TOKEN}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

const NOT_READY = {
  error: {
    code: 'SESSION_BACKUP_NOT_READY',
    retryable: true,
    message: 'Session backup is still synchronizing. Retry after 3 seconds.',
  },
};

describe('ensure-restored', () => {
  let task: Task;
  const restoreOf = (overrides: Json = {}): Json => ({
    cwd: '/workspace',
    sessionId: task.sessionId,
    taskId: task.id,
    ...overrides,
  });
  const answer = async (body: Json): Promise<{ status: number; body: Json }> => {
    const response = await ensureRestored(body);
    return { status: response.status, body: (await response.json()) as Json };
  };

  beforeAll(async () => {
    task = (await startTask('permission')).task;
  });

  it('a known task and session → {"status":"current"}', async () => {
    expect(await answer(restoreOf())).toEqual({ status: 200, body: { status: 'current' } });
  });

  it.each([
    { name: 'another session', overrides: { sessionId: 'session-000000000000' }, status: 404 },
    { name: 'an unknown task', overrides: { taskId: 'no-such-task' }, status: 404 },
    { name: 'no cwd', overrides: { cwd: undefined }, status: 400 },
    { name: 'an empty sessionId', overrides: { sessionId: '' }, status: 400 },
  ])('$name → $status', async ({ overrides, status }) => {
    expect((await answer(restoreOf(overrides))).status).toBe(status);
  });

  it('needs the bearer token like every kernel route', async () => {
    expect((await ensureRestored(restoreOf(), false)).status).toBe(401);
  });

  it.each([
    {
      mode: 'not-ready-once' as const,
      expected: [
        [409, NOT_READY],
        [200, { status: 'current' }],
      ],
    },
    {
      mode: 'not-ready' as const,
      expected: [
        [409, NOT_READY],
        [409, NOT_READY],
      ],
    },
    {
      mode: 'unsupported' as const,
      expected: [
        [404, { detail: 'Not Found' }],
        [404, { detail: 'Not Found' }],
      ],
    },
    {
      mode: 'restored' as const,
      expected: [
        [200, { status: 'restored' }],
        [200, { status: 'restored' }],
      ],
    },
  ])('mode $mode', async ({ mode, expected }) => {
    await upstream.setEnsureRestoredMode(mode);
    const answers = [await answer(restoreOf()), await answer(restoreOf())];
    expect(answers.map(({ status, body }) => [status, body])).toEqual(expected);
  });

  it('`permission backup-not-ready`: that task answers 409 once, then current', async () => {
    const { task: flagged } = await startTask('permission backup-not-ready');
    const body = { cwd: '/workspace', sessionId: flagged.sessionId, taskId: flagged.id };
    expect(await answer(body)).toEqual({ status: 409, body: NOT_READY });
    expect(await answer(body)).toEqual({ status: 200, body: { status: 'current' } });
    expect(await answer(restoreOf())).toEqual({ status: 200, body: { status: 'current' } });
  });

  it('refuses an unknown mode', async () => {
    await expect(upstream.setEnsureRestoredMode('sometimes' as never)).rejects.toThrow(/HTTP 400/);
  });
});

// ---- fault injection --------------------------------------------------------------------------------

describe('fault injection', () => {
  it('rpc-error on a streaming method: one SSE frame with the JSON-RPC error, HTTP 200; the next call works', async () => {
    await upstream.injectFault({ method: 'SendStreamingMessage', mode: 'rpc-error' });
    const response = await post('SendStreamingMessage', userText('hello'), 'faulty');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const raw = await response.text();
    expect(raw).toBe(
      `data: ${JSON.stringify({ jsonrpc: '2.0', id: 'faulty', error: { code: -32603, message: 'Internal error' } })}\r\n\r\n`,
    );
    const frames = await streamFrames('SendStreamingMessage', userText('hello'));
    expect(stateOf(frames[frames.length - 1])).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('rpc-error on SendMessage carries the given error, as a JSON body', async () => {
    const error = {
      code: -32603,
      message: NOT_READY.error.message,
      data: { code: 'SESSION_BACKUP_NOT_READY', retryable: true },
    };
    await upstream.injectFault({ method: 'SendMessage', mode: 'rpc-error', error });
    expect(await rpcJson('SendMessage', userText('hello'))).toEqual({
      jsonrpc: '2.0',
      id: expect.any(String),
      error,
    });
  });

  it('empty-stream: event-stream headers and no frame at all', async () => {
    await upstream.injectFault({ method: 'SubscribeToTask', mode: 'empty-stream' });
    const response = await post('SubscribeToTask', { id: 'any' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await response.text()).toBe('');
  });

  it('http-500 × 2: two HTTP 500 answers, then normal service', async () => {
    await upstream.injectFault({ method: 'GetTask', mode: 'http-500', times: 2 });
    const { task } = await startTask('permission');
    expect((await post('GetTask', { id: task.id })).status).toBe(500);
    expect((await post('GetTask', { id: task.id })).status).toBe(500);
    expect((await getTask(task)).id).toBe(task.id);
  });

  it('a faulted permission answer is not applied: the permission stays pending and the retry is accepted', async () => {
    const { task } = await startTask('permission');
    await upstream.injectFault({ method: 'SendStreamingMessage', mode: 'rpc-error' });
    const answer = permissionAnswer(task, expectedPermission(task), 'allow_once');
    expect(framesOf(await (await post('SendStreamingMessage', answer)).text()).map(labelOf)).toEqual([
      'error:-32603',
    ]);
    expect((await getTask(task)).metadata.iac_code.input.inputId).toBe('permission-1');

    const frames = await streamFrames('SendStreamingMessage', answer);
    expect(frames.map(labelOf)).toContain('tool:completed');
    const sent = await messagesTo(task);
    expect(sent).toHaveLength(2);
    expect(sent[0].message).toEqual(sent[1].message);
  });

  it('clearFaults disarms what was not used; a bad spec is refused', async () => {
    await upstream.injectFault({ method: 'GetTask', mode: 'http-500', times: 5 });
    await upstream.clearFaults();
    const { task } = await startTask('permission');
    expect((await post('GetTask', { id: task.id })).status).toBe(200);
    await expect(upstream.injectFault({ method: 'SendMessage', mode: 'empty-stream' })).rejects.toThrow(
      /HTTP 400/,
    );
    await expect(upstream.injectFault({ method: 'GetTask', mode: 'http-500', times: 0 })).rejects.toThrow(
      /HTTP 400/,
    );
  });
});

// ---- through the @a2a-js/sdk client -----------------------------------------------------------------

describe('through the @a2a-js/sdk client', () => {
  let client: Client;

  beforeAll(async () => {
    const withToken: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${TOKEN}`);
      return fetch(input, { ...init, headers });
    };
    client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: withToken })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: withToken }),
    }).createFromUrl(upstream.url);
  });

  async function collect(request: SendMessageRequest): Promise<Json[]> {
    const items: Json[] = [];
    for await (const item of client.sendMessageStream(request)) items.push(item.payload as Json);
    return items;
  }

  it('permission: INPUT_REQUIRED ends the stream; the SDK-built DataPart answer is accepted', async () => {
    const first = await collect(
      SendMessageRequest.fromJSON({
        message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'permission' }] },
      }),
    );
    const last = first[first.length - 1].value as Json;
    expect(last.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const input = last.metadata.iac_code.input as Json;
    const task: Task = { id: last.taskId, contextId: last.contextId, sessionId: '' };

    const answer = permissionAnswer(task, input, 'allow_once');
    const resumed = await collect(SendMessageRequest.fromJSON(answer));
    expect(resumed[0].$case).toBe('task');
    expect(resumed[0].value.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const tools = resumed.map((item) => item.value.metadata?.iac_code?.tool).filter(Boolean);
    expect(tools).toEqual([expect.objectContaining({ status: 'completed', result: '/workspace' })]);
  });

  it('a malformed answer surfaces as a typed -32602 error before any event', async () => {
    const { task } = await startTask('permission');
    const answer = permissionAnswer(task, expectedPermission(task), 'allow_once');
    answer.message.parts[0].data.extra = true;
    const request = SendMessageRequest.fromJSON({
      message: Message.toJSON(Message.fromJSON(answer.message)),
    });
    await expect(collect(request)).rejects.toMatchObject({ envelopeCode: -32602 });
  });
});
