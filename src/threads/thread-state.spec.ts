/* eslint-disable @typescript-eslint/no-explicit-any -- the rows build deliberately malformed documents */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode } from '../common/error-code';
import { serializeThreadState, validateThreadState, type ThreadState } from './thread-state';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(__dirname, '../../test/fixtures/threads', name), 'utf8'));

const DIGEST_A = 'a'.repeat(64);

function validDocument(): Record<string, any> {
  return {
    schemaVersion: 1,
    threadId: 'thread-1',
    contextId: 'agui-0123456789abcdef0123456789abcdef01234567',
    cwd: '/work/ws',
    userId: null,
    iacCodeSessionId: 'session-1',
    execution: {
      executionId: 'exec-1',
      rosInvocationId: 'invocation-1',
      taskId: 'task-1',
      lastTaskId: null,
      pipelineSequence: 3,
      pipelineOpenSteps: ['candidate:a', 'step:b'],
      textSnapshotDigests: [DIGEST_A],
      pending: {
        'permission-1': {
          value: { inputId: 'permission-1', kind: 'permission', title: 'Run' },
          sideband: false,
          expiresAt: '2026-01-01T00:09:00Z',
        },
      },
    },
    runDigests: { 'run-1': 'd'.repeat(64) },
    appliedResumeDigests: [{ executionId: 'exec-0', interruptId: 'input-1', digest: 'e'.repeat(64) }],
    terminalExecutionIds: ['exec-0'],
  };
}

type Mutation = (doc: Record<string, any>) => unknown;
const invalidRows: { name: string; mutate: Mutation }[] = [
  { name: 'not an object', mutate: () => [] },
  { name: 'null', mutate: () => null },
  { name: 'unknown schema version', mutate: (d) => ({ ...d, schemaVersion: 999 }) },
  { name: 'schema version as a string', mutate: (d) => ({ ...d, schemaVersion: '1' }) },
  { name: 'another thread id', mutate: (d) => ({ ...d, threadId: 'thread-2' }) },
  { name: 'missing contextId', mutate: (d) => ({ ...d, contextId: '' }) },
  { name: 'missing cwd', mutate: (d) => ({ ...d, cwd: undefined }) },
  { name: 'userId not a string', mutate: (d) => ({ ...d, userId: 7 }) },
  { name: 'iacCodeSessionId not a string', mutate: (d) => ({ ...d, iacCodeSessionId: {} }) },
  { name: 'agentCoreSessionId not a string', mutate: (d) => ({ ...d, agentCoreSessionId: 1 }) },
  { name: 'execution missing', mutate: (d) => ({ ...d, execution: undefined }) },
  { name: 'runDigests not an object', mutate: (d) => ({ ...d, runDigests: [] }) },
  { name: 'appliedResumeDigests not an array', mutate: (d) => ({ ...d, appliedResumeDigests: {} }) },
  {
    name: 'applied digest without interruptId',
    mutate: (d) => ({ ...d, appliedResumeDigests: [{ executionId: 'e', digest: 'x' }] }),
  },
  { name: 'principal not a string', mutate: (d) => ({ ...d, principal: { sub: 'alice' } }) },
  { name: 'terminalExecutionIds not an array', mutate: (d) => ({ ...d, terminalExecutionIds: 'exec-0' }) },
  { name: 'empty executionId', mutate: (d) => ({ ...d, execution: { ...d.execution, executionId: '' } }) },
  {
    name: 'missing rosInvocationId',
    mutate: (d) => ({ ...d, execution: { ...d.execution, rosInvocationId: undefined } }),
  },
  { name: 'taskId not a string', mutate: (d) => ({ ...d, execution: { ...d.execution, taskId: 1 } }) },
  {
    name: 'negative pipelineSequence',
    mutate: (d) => ({ ...d, execution: { ...d.execution, pipelineSequence: -1 } }),
  },
  {
    name: 'boolean pipelineSequence',
    mutate: (d) => ({ ...d, execution: { ...d.execution, pipelineSequence: true } }),
  },
  {
    name: 'fractional pipelineSequence',
    mutate: (d) => ({ ...d, execution: { ...d.execution, pipelineSequence: 1.5 } }),
  },
  {
    name: 'empty open step',
    mutate: (d) => ({ ...d, execution: { ...d.execution, pipelineOpenSteps: [''] } }),
  },
  {
    name: 'upper-case text digest',
    mutate: (d) => ({ ...d, execution: { ...d.execution, textSnapshotDigests: ['A'.repeat(64)] } }),
  },
  {
    name: 'short text digest',
    mutate: (d) => ({ ...d, execution: { ...d.execution, textSnapshotDigests: ['a'] } }),
  },
  { name: 'pending not an object', mutate: (d) => ({ ...d, execution: { ...d.execution, pending: [] } }) },
  {
    name: 'pending inputId differs from key',
    mutate: (d) => ({ ...d, execution: { ...d.execution, pending: { p: { value: { inputId: 'q' } } } } }),
  },
  {
    name: 'pending sideband not boolean',
    mutate: (d) => ({
      ...d,
      execution: { ...d.execution, pending: { p: { value: { inputId: 'p' }, sideband: 'no' } } },
    }),
  },
  {
    name: 'pending expiresAt not a date',
    mutate: (d) => ({
      ...d,
      execution: { ...d.execution, pending: { p: { value: { inputId: 'p' }, expiresAt: 'soon' } } },
    }),
  },
];

describe('validateThreadState', () => {
  it('accepts the docs/behaviour/state.md#the-document layout', () => {
    const state = validateThreadState(validDocument(), 'thread-1');
    expect(state.execution.pending['permission-1'].expiresAt).toBe('2026-01-01T00:09:00Z');
    expect(state.execution.pipelineSequence).toBe(3);
  });

  it.each(invalidRows)('refuses $name with STATE_UNAVAILABLE', ({ mutate }) => {
    expect(() => validateThreadState(mutate(validDocument()), 'thread-1')).toThrow(
      expect.objectContaining({ code: ErrorCode.STATE_UNAVAILABLE, messageKey: 'stateUnavailable' }),
    );
  });

  it('fills the defaults Python fills and drops what Python drops', () => {
    const doc = validDocument();
    delete doc.userId;
    delete doc.execution.pipelineSequence;
    delete doc.execution.pipelineOpenSteps;
    delete doc.execution.textSnapshotDigests;
    delete doc.execution.lastTaskId;
    doc.execution.pending = { p: { value: { inputId: 'p', toolInput: { secret: 'x' }, title: 'T' } } };
    doc.runDigests = { 'run-1': 'x', '': 'y', 'run-2': '', 'run-3': 5 };
    doc.terminalExecutionIds = ['exec-0', '', 3];
    const state = validateThreadState(doc, 'thread-1');
    expect(state.userId).toBeNull();
    expect(state.execution).toMatchObject({
      pipelineSequence: 0,
      pipelineOpenSteps: [],
      textSnapshotDigests: [],
      lastTaskId: null,
    });
    expect(state.execution.pending).toEqual({ p: { value: { inputId: 'p', title: 'T' }, sideband: false } });
    expect(state.runDigests).toEqual({ 'run-1': 'x' });
    expect(state.terminalExecutionIds).toEqual(['exec-0']);
  });

  it('keeps unknown keys at every level', () => {
    const doc = validDocument();
    doc.futureField = { nested: [1, 2] };
    doc.execution.futureExecutionField = 'kept';
    doc.execution.pending['permission-1'].futureEntryField = true;
    doc.appliedResumeDigests[0].note = 'kept too';
    const state = validateThreadState(doc, 'thread-1') as ThreadState & Record<string, unknown>;
    expect(state.futureField).toEqual({ nested: [1, 2] });
    expect(state.execution).toHaveProperty('futureExecutionField', 'kept');
    expect(state.execution.pending['permission-1']).toHaveProperty('futureEntryField', true);
    expect(state.appliedResumeDigests[0]).toHaveProperty('note', 'kept too');
  });
});

describe('serializeThreadState', () => {
  it('writes sorted keys, 2-space indent, non-ASCII kept and a trailing newline', () => {
    const state = validateThreadState({ ...validDocument(), cwd: '/工作区' }, 'thread-1');
    const text = serializeThreadState(state);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('"cwd": "/工作区"');
    expect(text.startsWith('{\n  "appliedResumeDigests": [\n    {\n      "digest": ')).toBe(true);
    const topKeys = [...text.matchAll(/^ {2}"([^"]+)":/gm)].map((m) => m[1]);
    expect(topKeys).toEqual([...topKeys].sort());
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it('orders integer-like and astral keys by code point, unlike JSON.stringify', () => {
    const state = validateThreadState(
      { ...validDocument(), runDigests: { '10': 'a', '2': 'b', '\u{1F600}': 'c', '\uFFFF': 'd' } },
      'thread-1',
    );
    const text = serializeThreadState(state);
    const order = ['"10"', '"2"', '"\uFFFF"', '"\u{1F600}"'].map((key) => text.indexOf(key));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('sorts and de-duplicates the set-like arrays', () => {
    const doc = validDocument();
    doc.terminalExecutionIds = ['b', 'a', 'b'];
    doc.execution.pipelineOpenSteps = ['step:z', 'candidate:a', 'step:z'];
    doc.appliedResumeDigests = [
      { executionId: 'e2', interruptId: 'i1', digest: 'x' },
      { executionId: 'e1', interruptId: 'i2', digest: 'y' },
      { executionId: 'e1', interruptId: 'i2', digest: 'z' },
    ];
    const written = JSON.parse(serializeThreadState(validateThreadState(doc, 'thread-1')));
    expect(written.terminalExecutionIds).toEqual(['a', 'b']);
    expect(written.execution.pipelineOpenSteps).toEqual(['candidate:a', 'step:z']);
    expect(written.appliedResumeDigests).toEqual([
      { executionId: 'e1', interruptId: 'i2', digest: 'z' },
      { executionId: 'e2', interruptId: 'i1', digest: 'x' },
    ]);
  });

  it('refuses NaN', () => {
    const state = validateThreadState(validDocument(), 'thread-1');
    const broken = { ...state, execution: { ...state.execution, pipelineSequence: NaN } };
    expect(() => serializeThreadState(broken)).toThrow(
      expect.objectContaining({ code: ErrorCode.STATE_UNAVAILABLE }),
    );
  });
});

describe('committed fixtures', () => {
  it.each([
    { file: 'gen-a.json', threadId: 'thread-gen-a', unknownKey: 'legacyAdapterNote' },
    { file: 'gen-b.json', threadId: 'thread-gen-b', unknownKey: 'handoffGeneration' },
  ])('$file loads and survives a load/rewrite with its unknown field', ({ file, threadId, unknownKey }) => {
    const original = fixture(file);
    const state = validateThreadState(original, threadId);
    const rewritten = JSON.parse(serializeThreadState(state));
    expect(rewritten[unknownKey]).toEqual(original[unknownKey]);
    // The only change allowed: Gen A files gain Gen B's `lastTaskId: null`.
    const execution = original.execution as Record<string, unknown>;
    expect(rewritten).toEqual({ ...original, execution: { lastTaskId: null, ...execution } });
  });

  it('gen-a keeps expiresAt and gen-b keeps lastTaskId', () => {
    const genA = validateThreadState(fixture('gen-a.json'), 'thread-gen-a');
    const genB = validateThreadState(fixture('gen-b.json'), 'thread-gen-b');
    expect(Object.values(genA.execution.pending)[0].expiresAt).toBe('2026-01-01T00:09:00Z');
    expect(genB.execution.lastTaskId).toBe('task-0');
  });
});
