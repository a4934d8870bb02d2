import type { ResumeEntry } from '@ag-ui/core';
import type { PendingInterruptEntry } from './pending-interrupt';
import { isTakenByKernel, permissionAnswersInHistory } from './kernel-held-answers';

const permissionAnswer = (inputId: string) => ({
  messageId: `answer-${inputId}`,
  role: 'ROLE_USER',
  parts: [{ data: { schemaVersion: 1, kind: 'permission', inputId, decision: 'allow_once' } }],
});
const task = (history: unknown[]) => ({ task: { id: 'task-1', history } });

describe('permissionAnswersInHistory', () => {
  it.each([
    { name: 'a user permission answer', history: [permissionAnswer('p-1')], expected: ['p-1'] },
    {
      name: 'the same part from the agent',
      history: [{ ...permissionAnswer('p-1'), role: 'ROLE_AGENT' }],
      expected: [],
    },
    { name: 'text only', history: [{ role: 'ROLE_USER', parts: [{ text: 'p-1' }] }], expected: [] },
    { name: 'malformed entries', history: [null, 'x', { role: 'ROLE_USER', parts: 'no' }], expected: [] },
  ])('$name → $expected', ({ history, expected }) =>
    expect([...permissionAnswersInHistory(task(history))]).toEqual(expected),
  );

  it('reads nothing from a frame without a task history', () => {
    expect(permissionAnswersInHistory({ task: { id: 'task-1' } }).size).toBe(0);
    expect(permissionAnswersInHistory({}).size).toBe(0);
  });
});

describe('isTakenByKernel', () => {
  const pending: Record<string, PendingInterruptEntry> = {
    'p-1': { value: { inputId: 'p-1', kind: 'permission' }, sideband: false },
    'q-1': { value: { inputId: 'q-1', kind: 'question' }, sideband: false },
  };
  const entry = (interruptId: string): ResumeEntry => ({ interruptId, status: 'resolved', payload: {} });

  it.each([
    { name: 'a held permission answer', resume: ['p-1'], held: ['p-1'], expected: true },
    { name: 'a permission the kernel does not hold', resume: ['p-1'], held: [], expected: false },
    { name: 'a question (its text names no input)', resume: ['q-1'], held: ['q-1'], expected: false },
    { name: 'one held and one not', resume: ['p-1', 'q-1'], held: ['p-1'], expected: false },
    { name: 'an id that is not pending', resume: ['p-2'], held: ['p-2'], expected: false },
    { name: 'an empty resume', resume: [], held: ['p-1'], expected: false },
  ])('$name → $expected', ({ resume, held, expected }) =>
    expect(isTakenByKernel(resume.map(entry), pending, new Set(held))).toBe(expected),
  );
});
