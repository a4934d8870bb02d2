import type { A2aFrame } from './a2a-wire';
import { normaliseState, unwrapFrame } from './unwrap-frame';

describe('normaliseState', () => {
  it.each([
    { raw: 'TASK_STATE_INPUT_REQUIRED', state: 'input-required' },
    { raw: 'TASK_STATE_AUTH_REQUIRED', state: 'auth-required' },
    { raw: 'TASK_STATE_WORKING', state: 'working' },
    { raw: 'TASK_STATE_CANCELED', state: 'canceled' },
    { raw: ' TASK_STATE_COMPLETED ', state: 'completed' },
    { raw: 'input-required', state: 'input-required' },
    { raw: 'failed', state: 'failed' },
    { raw: '', state: undefined },
    { raw: 3, state: undefined },
    { raw: undefined, state: undefined },
  ])('$raw → $state', ({ raw, state }) => expect(normaliseState(raw)).toBe(state));
});

const statusUpdate = { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_WORKING' } };

describe('unwrapFrame', () => {
  it.each<{ name: string; frame: A2aFrame; kind: string; taskId?: string; state?: string }>([
    {
      name: 'a StreamResponse status update',
      frame: { statusUpdate },
      kind: 'statusUpdate',
      taskId: 'task-1',
      state: 'working',
    },
    {
      name: 'a JSON-RPC envelope',
      frame: { jsonrpc: '2.0', id: 1, result: { statusUpdate } },
      kind: 'statusUpdate',
      taskId: 'task-1',
      state: 'working',
    },
    {
      name: 'a task snapshot (id is the task id)',
      frame: { task: { id: 'task-2', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } } },
      kind: 'task',
      taskId: 'task-2',
      state: 'submitted',
    },
    {
      name: 'a bare task (GetTask/CancelTask result)',
      frame: { result: { id: 'task-3', status: { state: 'TASK_STATE_COMPLETED' } } },
      kind: 'task',
      taskId: 'task-3',
      state: 'completed',
    },
    {
      name: 'an artifact update',
      frame: { artifactUpdate: { taskId: 'task-1', artifact: { artifactId: 'a' } } },
      kind: 'artifactUpdate',
      taskId: 'task-1',
    },
    {
      name: 'a message',
      frame: { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [] } },
      kind: 'message',
    },
    {
      name: 'an A2A 0.3 status-update',
      frame: { result: { kind: 'status-update', taskId: 'task-4', status: { state: 'input-required' } } },
      kind: 'statusUpdate',
      taskId: 'task-4',
      state: 'input-required',
    },
    { name: 'something else', frame: { foo: 1 }, kind: 'unknown' },
  ])('unwraps $name', ({ frame, kind, taskId, state }) => {
    const unwrapped = unwrapFrame(frame);
    expect(unwrapped.kind).toBe(kind);
    expect(unwrapped.taskId).toBe(taskId);
    expect(unwrapped.state).toBe(state);
  });

  it('prefers task over statusUpdate when both are present (docs/behaviour/events.md#unwrapping-frames order)', () => {
    const unwrapped = unwrapFrame({ result: { statusUpdate, task: { id: 'task-9', status: {} } } });
    expect(unwrapped).toMatchObject({ kind: 'task', taskId: 'task-9' });
  });

  it('omits absent fields instead of setting them to undefined', () => {
    expect(Object.keys(unwrapFrame({ message: { messageId: 'm', parts: [] } })).sort()).toEqual([
      'body',
      'kind',
      'requiredInputs',
      'sidebandInputIds',
    ]);
  });

  const withIacCode = (iacCode: unknown): A2aFrame => ({
    statusUpdate: { ...statusUpdate, metadata: { iac_code: iacCode } },
  });

  it.each([
    {
      name: 'iacCodeSessionId',
      iacCode: { iacCodeSessionId: 's-direct', pipeline: { iacCodeSessionId: 's-pipe' } },
      sessionId: 's-direct',
    },
    {
      name: 'pipeline.iacCodeSessionId',
      iacCode: { iacCodeSessionId: '', pipeline: { iacCodeSessionId: 's-pipe' } },
      sessionId: 's-pipe',
    },
    {
      name: 'pipelineBatch.events[*].iacCodeSessionId',
      iacCode: { pipelineBatch: { events: [{ eventId: 'e1' }, 'junk', { iacCodeSessionId: 's-batch' }] } },
      sessionId: 's-batch',
    },
    { name: 'no source', iacCode: { pipelineBatch: { events: 'nope' } }, sessionId: undefined },
  ])('reads the session id from $name', ({ iacCode, sessionId }) => {
    expect(unwrapFrame(withIacCode(iacCode)).sessionId).toBe(sessionId);
  });

  it('exposes metadata.iac_code only when it is an object', () => {
    expect(unwrapFrame(withIacCode({ usage: {} })).iacCode).toEqual({ usage: {} });
    expect(unwrapFrame(withIacCode('x')).iacCode).toBeUndefined();
  });

  it('collects required inputs from input then pendingPermissions, deduped by inputId', () => {
    const permission = { inputId: 'perm-1', kind: 'permission', required: true, scope: 'candidate' };
    const unwrapped = unwrapFrame(
      withIacCode({
        input: permission,
        pendingPermissions: [
          { ...permission },
          { inputId: 'perm-2', kind: 'permission', required: true },
          { inputId: 'perm-3', required: false },
          { kind: 'question', required: true, prompt: 'Which?' },
          { prompt: 'Which?', kind: 'question', required: true },
          'junk',
        ],
      }),
    );
    expect(unwrapped.requiredInputs).toEqual([
      permission,
      { inputId: 'perm-2', kind: 'permission', required: true },
      { kind: 'question', required: true, prompt: 'Which?' },
    ]);
    expect(unwrapped.sidebandInputIds).toEqual(['perm-1', 'perm-2', 'perm-3']);
  });

  it('does not treat a direct non-candidate input as sideband', () => {
    const unwrapped = unwrapFrame(
      withIacCode({ input: { inputId: 'q-1', kind: 'question', required: true } }),
    );
    expect(unwrapped.requiredInputs).toHaveLength(1);
    expect(unwrapped.sidebandInputIds).toEqual([]);
  });
});
