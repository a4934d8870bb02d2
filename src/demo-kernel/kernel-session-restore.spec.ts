import {
  KernelSessionRestore,
  SESSION_BACKUP_NOT_READY_BODY,
  type EnsureRestoredMode,
} from './kernel-session-restore';

const known = { cwd: '/w', sessionId: 'session-1', taskId: 'task-1' };

describe('KernelSessionRestore', () => {
  let restore: KernelSessionRestore;
  beforeEach(() => {
    restore = new KernelSessionRestore();
    restore.remember('task-1', 'session-1', false);
  });

  it.each([
    { name: 'known task and session', body: known, status: 200, answer: { status: 'current' } },
    { name: 'other session', body: { ...known, sessionId: 'session-2' }, status: 404 },
    { name: 'unknown task', body: { ...known, taskId: 'task-2' }, status: 404 },
    { name: 'missing cwd', body: { sessionId: 'session-1', taskId: 'task-1' }, status: 400 },
    { name: 'not an object', body: undefined, status: 400 },
  ])('$name → $status', ({ body, status, answer }) => {
    const result = restore.answer(body);
    expect(result.status).toBe(status);
    if (answer) expect(result.body).toEqual(answer);
  });

  it.each([
    { mode: 'restored', statuses: [200, 200], body: { status: 'restored' } },
    { mode: 'not-ready-once', statuses: [409, 200], body: { status: 'current' } },
    { mode: 'not-ready', statuses: [409, 409], body: SESSION_BACKUP_NOT_READY_BODY },
    { mode: 'unsupported', statuses: [404, 404], body: { detail: 'Not Found' } },
  ])('mode $mode answers $statuses', ({ mode, statuses, body }) => {
    restore.setMode(mode as EnsureRestoredMode);
    const answers = [restore.answer(known), restore.answer(known)];
    expect(answers.map((answer) => answer.status)).toEqual(statuses);
    expect(answers[1].body).toEqual(body);
  });

  it('a task remembered with a pending backup answers 409 once, then current', () => {
    restore.remember('task-2', 'session-2', true);
    const body = { cwd: '/w', sessionId: 'session-2', taskId: 'task-2' };
    expect(restore.answer(body)).toEqual({ status: 409, body: SESSION_BACKUP_NOT_READY_BODY });
    expect(restore.answer(body)).toEqual({ status: 200, body: { status: 'current' } });
  });
});
