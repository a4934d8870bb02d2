import { permissionInput } from './kernel-inputs';
import { shellPermissionSpec } from './interrupt-scripts';
import type { KernelAnswer, KernelAwaitStep } from './kernel-script';
import { PendingKernelInputs } from './pending-kernel-inputs';

const ids = { taskId: 'task-1', contextId: 'ctx-1', sessionId: 'session-1' };
const direct = permissionInput(ids, shellPermissionSpec('tool-1'));
const sideband = permissionInput(ids, {
  ...shellPermissionSpec('tool-2', 'permission-2'),
  extra: { scope: 'candidate' },
});
const allow = (inputId: string): KernelAnswer => ({ kind: 'permission', inputId, decision: 'allow_once' });
const INPUT_REQUIRED = 'TASK_STATE_INPUT_REQUIRED';
const awaitStep: KernelAwaitStep = { kind: 'await', inputIds: ['permission-1'], resume: () => [] };

describe('PendingKernelInputs', () => {
  let inputs: PendingKernelInputs;
  beforeEach(() => {
    inputs = new PendingKernelInputs();
    inputs.beginTurn('task-1', 'ctx-1');
    inputs.announce('task-1', 'ctx-1', [
      { value: direct, via: 'input' },
      { value: sideband, via: 'pendingPermissions' },
    ]);
  });

  it('shows announced inputs to the answer check and in the task snapshot, by the field that carried them', () => {
    expect(inputs.viewOf('task-1')).toEqual({
      taskId: 'task-1',
      contextId: 'ctx-1',
      values: [direct, sideband],
    });
    expect(inputs.snapshotInputsOf('task-1', INPUT_REQUIRED)).toEqual({
      input: direct,
      pendingPermissions: [sideband],
    });
    expect(inputs.viewOf('task-2')).toBeUndefined();
  });

  it('an accepted answer stops pending; while a turn runs it goes to that turn, else to a new one', () => {
    expect(inputs.accept('task-1', allow('permission-2'))).toBe('running-turn');
    expect(inputs.snapshotInputsOf('task-1', INPUT_REQUIRED)).toEqual({ input: direct });
    inputs.endTurn('task-1');
    expect(inputs.accept('task-1', allow('permission-1'))).toBe('new-turn');
    expect(inputs.viewOf('task-1')).toBeUndefined();
    // The new turn is reserved at once: a further answer joins it instead of starting another.
    expect(inputs.accept('task-1', allow('permission-9'))).toBe('running-turn');
    // Like the kernel's merged task metadata: a task back at INPUT_REQUIRED still shows the answered input;
    // a working one does not, and a cancelled task shows nothing any more.
    expect(inputs.snapshotInputsOf('task-1', INPUT_REQUIRED)).toEqual({ input: direct });
    expect(inputs.snapshotInputsOf('task-1', 'TASK_STATE_WORKING')).toBeUndefined();
    inputs.forget('task-1');
    expect(inputs.snapshotInputsOf('task-1', INPUT_REQUIRED)).toBeUndefined();
  });

  it('a parked step is handed to the next turn once, and delivered answers are taken by id', () => {
    inputs.park('task-1', awaitStep);
    inputs.endTurn('task-1');
    inputs.deliver('task-1', allow('permission-2'));
    expect(inputs.beginTurn('task-1', 'ctx-1')).toBe(awaitStep);
    expect(inputs.beginTurn('task-1', 'ctx-1')).toBeUndefined();
    expect(inputs.takeAnswer('task-1', ['permission-1'])).toBeUndefined();
    expect(inputs.takeAnswer('task-1', ['permission-1', 'permission-2'])).toEqual(allow('permission-2'));
    expect(inputs.takeAnswer('task-1', ['permission-2'])).toBeUndefined();
  });

  it('awaitAnswer resolves when a matching answer is delivered, and with undefined when aborted', async () => {
    const controller = new AbortController();
    const waiting = inputs.awaitAnswer('task-1', ['permission-2'], controller.signal);
    inputs.deliver('task-1', allow('permission-1'));
    inputs.deliver('task-1', allow('permission-2'));
    await expect(waiting).resolves.toEqual(allow('permission-2'));

    const aborted = inputs.awaitAnswer('task-1', ['permission-3'], controller.signal);
    controller.abort();
    await expect(aborted).resolves.toBeUndefined();
  });

  it('forget drops everything the task waited for', () => {
    inputs.forget('task-1');
    expect(inputs.viewOf('task-1')).toBeUndefined();
    expect(inputs.beginTurn('task-1', 'ctx-1')).toBeUndefined();
  });
});
