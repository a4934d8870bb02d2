import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { PendingInterruptEntry } from './pending-interrupt';
import { mergePending, type MergePendingContext } from './merge-pending';

const CONTEXT = 'agui-4b0a5fefc328e6b9257bc535e3c5d26fec36b52f';
const EXPIRES_AT = '2026-01-01T00:09:00.000Z';
const OLD_EXPIRES_AT = '2026-01-01T00:01:00.000Z';

// Not config/'s deepFreeze: interrupts/ imports only wire/, common/ and i18n/ (docs/architecture.md#directions).
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

const permission = (inputId: string, extra: Record<string, unknown> = {}) => ({
  kind: 'permission',
  requestTaskId: 'task-1',
  contextId: CONTEXT,
  inputId,
  toolUseId: `tool-${inputId}`,
  required: true,
  ...extra,
});

const KNOWN: Record<string, PendingInterruptEntry> = deepFreeze({
  'permission-1': {
    value: { kind: 'permission', inputId: 'permission-1', toolUseId: 'tool-permission-1' },
    sideband: false,
    expiresAt: OLD_EXPIRES_AT,
  },
});

const context = (overrides: Partial<MergePendingContext> = {}): MergePendingContext => ({
  boundTaskId: 'task-1',
  contextId: CONTEXT,
  sidebandIds: new Set(),
  answeredIds: new Set(),
  expiresAt: EXPIRES_AT,
  ...overrides,
});

const mergeCases: {
  name: string;
  current: Record<string, PendingInterruptEntry>;
  inputs: Record<string, unknown>[];
  context: MergePendingContext;
  expected: { pending: Record<string, PendingInterruptEntry>; added: string[] };
}[] = [
  {
    name: 'a new input is stored as its projection with expiresAt',
    current: {},
    inputs: [permission('permission-1', { toolInput: { command: 'pwd' } })],
    context: context(),
    expected: {
      pending: {
        'permission-1': {
          value: {
            kind: 'permission',
            requestTaskId: 'task-1',
            contextId: CONTEXT,
            inputId: 'permission-1',
            toolUseId: 'tool-permission-1',
            required: true,
          },
          sideband: false,
          expiresAt: EXPIRES_AT,
        },
      },
      added: ['permission-1'],
    },
  },
  {
    name: 'no expiresAt key when the TTL is 0',
    current: {},
    inputs: [{ inputId: 'ask-1', required: true }],
    context: context({ expiresAt: undefined }),
    expected: {
      pending: { 'ask-1': { value: { inputId: 'ask-1', required: true }, sideband: false } },
      added: ['ask-1'],
    },
  },
  {
    name: 'a known entry is kept as it was, expiresAt included',
    current: KNOWN,
    inputs: [permission('permission-1', { prompt: 'changed' })],
    context: context(),
    expected: { pending: KNOWN, added: [] },
  },
  {
    name: 'a known entry seen as sideband is upgraded',
    current: KNOWN,
    inputs: [permission('permission-1')],
    context: context({ sidebandIds: new Set(['permission-1']) }),
    expected: { pending: { 'permission-1': { ...KNOWN['permission-1'], sideband: true } }, added: [] },
  },
  {
    name: 'a new sideband input is stored as sideband, after the known ones',
    current: KNOWN,
    inputs: [permission('permission-2')],
    context: context({ sidebandIds: new Set(['permission-2']) }),
    expected: {
      pending: {
        ...KNOWN,
        'permission-2': {
          value: {
            kind: 'permission',
            requestTaskId: 'task-1',
            contextId: CONTEXT,
            inputId: 'permission-2',
            toolUseId: 'tool-permission-2',
            required: true,
          },
          sideband: true,
          expiresAt: EXPIRES_AT,
        },
      },
      added: ['permission-2'],
    },
  },
  {
    name: 'an input already answered in this execution is ignored, identity unchecked',
    current: {},
    inputs: [permission('permission-1', { requestTaskId: 'task-old' })],
    context: context({ answeredIds: new Set(['permission-1']) }),
    expected: { pending: {}, added: [] },
  },
  {
    name: 'replace starts empty but keeps a known entry the snapshot still shows',
    current: { ...KNOWN, 'gone-1': { value: { inputId: 'gone-1' }, sideband: false } },
    inputs: [permission('permission-1')],
    context: context({ replace: true }),
    expected: { pending: KNOWN, added: [] },
  },
];

const identityCases: {
  name: string;
  input: Record<string, unknown>;
  context: MergePendingContext;
  key: string;
}[] = [
  {
    name: 'another task',
    input: permission('p-9', { requestTaskId: 'task-2' }),
    context: context(),
    key: 'interruptOtherTask',
  },
  {
    name: 'a task while none is bound',
    input: permission('p-9'),
    context: context({ boundTaskId: undefined }),
    key: 'interruptOtherTask',
  },
  {
    name: 'another context',
    input: permission('p-9', { contextId: 'agui-other' }),
    context: context(),
    key: 'interruptOtherContext',
  },
];

describe('mergePending', () => {
  it.each(mergeCases)('$name', ({ current, inputs, context: mergeContext, expected }) => {
    expect(mergePending(deepFreeze(current), deepFreeze(inputs), mergeContext)).toEqual(expected);
  });

  it('accepts inputs without requestTaskId or contextId', () => {
    const merged = mergePending({}, [{ inputId: 'ask-1' }], context({ boundTaskId: undefined }));
    expect(merged.added).toEqual(['ask-1']);
  });

  it.each(identityCases)(
    'refuses an input of $name with A2A_PROTOCOL_ERROR',
    ({ input, context: ctx, key }) => {
      const attempt = () => mergePending(KNOWN, [input], ctx);
      expect(attempt).toThrow(AguiError);
      expect(attempt).toThrow(
        expect.objectContaining({ code: ErrorCode.A2A_PROTOCOL_ERROR, messageKey: key }),
      );
    },
  );
});
