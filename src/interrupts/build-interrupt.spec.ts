import { EventType, type BaseEvent, type Interrupt } from '@ag-ui/core';
import { expectConformantEvents } from '../../test/support/agui-conformance';
import type { PersistedInput } from './pending-interrupt';
import { buildInterrupt, interruptsOfPending, type FallbackMessage } from './build-interrupt';
import { projectInput } from './project-input';
import { ResponseValidator } from './response-validator';

const CONTEXT = 'agui-4b0a5fefc328e6b9257bc535e3c5d26fec36b52f';
const NOW = Date.parse('2026-01-01T00:00:00Z');
const EXPIRES_AT = '2026-01-01T00:09:00.000Z';

const FALLBACKS: Record<string, Record<string, string>> = {
  en: { permissionRequired: 'Permission required', inputRequired: 'Input required' },
  zh: { permissionRequired: '需要权限', inputRequired: '需要输入' },
};
const fallbackMessage: FallbackMessage = (key, language) => FALLBACKS[language ?? 'en'][key];

/** The A2A permission input of the original's tests. */
const PERMISSION_FROM_A2A = {
  kind: 'permission',
  requestTaskId: 'task-1',
  contextId: CONTEXT,
  inputId: 'permission-1',
  toolUseId: 'tool-1',
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
  // Not persisted (docs/behaviour/state.md#never-stored), so never announced either.
  toolInput: { command: 'pwd' },
};

const WORKED_EXAMPLE: Interrupt = {
  id: 'permission-1',
  reason: 'tool_call',
  message: 'Run a local shell command. Allow once?',
  toolCallId: 'tool-1',
  responseSchema: {
    type: 'object',
    properties: { decision: { type: 'string', enum: ['allow_once', 'deny'] } },
    required: ['decision'],
    additionalProperties: false,
  },
  expiresAt: EXPIRES_AT,
  metadata: {
    schemaVersion: 1,
    kind: 'permission',
    requestTaskId: 'task-1',
    contextId: CONTEXT,
    inputId: 'permission-1',
    toolUseId: 'tool-1',
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
    standardOptions: [
      { id: 'allow_once', title: 'Allow once' },
      { id: 'deny', title: 'Deny' },
    ],
  },
};

const QUESTION: PersistedInput = {
  kind: 'ask_user_question',
  inputId: 'ask-1',
  toolUseId: 'ask-1',
  prompt: 'Which plan?',
  options: [
    { id: 'plan-a', label: 'Plan A' },
    { id: 'plan-b', label: 'Plan B' },
  ],
  required: true,
};

const interruptCases: { name: string; input: PersistedInput; expiresAt?: string; expected: Interrupt }[] = [
  {
    name: 'the docs/behaviour/interrupts.md#from-input-required-to-interrupts worked example, with the Gen A expiresAt',
    input: projectInput(PERMISSION_FROM_A2A),
    expiresAt: EXPIRES_AT,
    expected: WORKED_EXAMPLE,
  },
  {
    name: 'a question lists its options under the prompt and has no expiresAt with TTL 0',
    input: QUESTION,
    expected: {
      id: 'ask-1',
      reason: 'input_required',
      message: 'Which plan?\n- plan-a: Plan A\n- plan-b: Plan B',
      toolCallId: 'ask-1',
      responseSchema: {
        oneOf: [
          {
            type: 'object',
            properties: { selectedId: { type: 'string', const: 'plan-a', title: 'Plan A' } },
            required: ['selectedId'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { selectedId: { type: 'string', const: 'plan-b', title: 'Plan B' } },
            required: ['selectedId'],
            additionalProperties: false,
          },
        ],
      },
      metadata: {
        schemaVersion: 1,
        ...QUESTION,
        standardOptions: [
          { id: 'plan-a', title: 'Plan A' },
          { id: 'plan-b', title: 'Plan B' },
        ],
      },
    },
  },
  {
    name: 'a permission without prompt, title or tool id falls back in its own language',
    input: { kind: 'permission', inputId: 'p-2', language: 'zh', schemaVersion: 2 },
    expected: {
      id: 'p-2',
      reason: 'tool_call',
      message: '需要权限',
      responseSchema: WORKED_EXAMPLE.responseSchema,
      metadata: { schemaVersion: 2, kind: 'permission', inputId: 'p-2', language: 'zh', standardOptions: [] },
    },
  },
  {
    name: 'a question without options takes free text and falls back to "Input required"',
    input: { inputId: 'q-3', prompt: '' },
    expected: {
      id: 'q-3',
      reason: 'input_required',
      message: 'Input required',
      responseSchema: {
        oneOf: [
          {
            type: 'object',
            properties: { freeText: { type: 'string', minLength: 1 } },
            required: ['freeText'],
            additionalProperties: false,
          },
        ],
      },
      metadata: { schemaVersion: 1, inputId: 'q-3', prompt: '', standardOptions: [] },
    },
  },
];

describe('buildInterrupt', () => {
  it.each(interruptCases)('$name', ({ input, expiresAt, expected }) => {
    expect(buildInterrupt(input, { ...(expiresAt ? { expiresAt } : {}), fallbackMessage })).toEqual(expected);
  });

  it('uses the title when a permission has no prompt', () => {
    const input = projectInput({ ...PERMISSION_FROM_A2A, prompt: '' });
    expect(buildInterrupt(input, { fallbackMessage }).message).toBe('Run a local shell command');
  });

  it('handles deployment_confirmation and cloud_resource_selection as generic option questions', () => {
    const confirmation = buildInterrupt(
      {
        kind: 'deployment_confirmation',
        inputId: 'confirm-1',
        prompt: 'Deploy?',
        options: [
          { id: 'confirm', label: 'Confirm', action: 'confirm' },
          { id: 'cancel', label: 'Cancel', action: 'cancel' },
        ],
      },
      { fallbackMessage },
    );
    const selection = buildInterrupt(
      { kind: 'cloud_resource_selection', inputId: 'vpc-1', selector: { id: 'vpc.vpc' } },
      { fallbackMessage },
    );
    expect([confirmation.reason, confirmation.message]).toEqual([
      'input_required',
      'Deploy?\n- confirm: Confirm\n- cancel: Cancel',
    ]);
    expect((confirmation.responseSchema as { oneOf: unknown[] }).oneOf).toHaveLength(2);
    expect([selection.message, selection.responseSchema]).toEqual([
      'Input required',
      { oneOf: [expect.objectContaining({ required: ['freeText'] })] },
    ]);
    expect(selection.metadata?.selector).toEqual({ id: 'vpc.vpc' });
  });

  it('does not share mutable state with the input', () => {
    const input = projectInput(PERMISSION_FROM_A2A);
    const interrupt = buildInterrupt(input, { fallbackMessage });
    (interrupt.metadata?.options as { id: string }[])[0].id = 'changed';
    expect((input.options as { id: string }[])[0].id).toBe('allow_once');
  });

  it('lists every pending entry, each with its own expiresAt, in a conformant RUN_FINISHED', async () => {
    const interrupts = interruptsOfPending(
      {
        'permission-1': { value: projectInput(PERMISSION_FROM_A2A), sideband: false, expiresAt: EXPIRES_AT },
        'ask-1': { value: QUESTION, sideband: true },
      },
      fallbackMessage,
    );
    expect(interrupts.map((interrupt) => [interrupt.id, interrupt.expiresAt])).toEqual([
      ['permission-1', EXPIRES_AT],
      ['ask-1', undefined],
    ]);
    expect('expiresAt' in interrupts[1]).toBe(false);
    const events: BaseEvent[] = [
      { type: EventType.RUN_STARTED, threadId: 'thread-1', runId: 'run-1', timestamp: NOW } as BaseEvent,
      {
        type: EventType.RUN_FINISHED,
        threadId: 'thread-1',
        runId: 'run-1',
        outcome: { type: 'interrupt', interrupts },
        timestamp: NOW,
      } as BaseEvent,
    ];
    await expectConformantEvents(events);
  });
});

describe('built response schemas', () => {
  const validator = new ResponseValidator();
  const inputs: PersistedInput[] = [
    projectInput(PERMISSION_FROM_A2A),
    QUESTION,
    { ...QUESTION, inputId: 'ask-2', allowFreeText: true },
    { inputId: 'free-1', prompt: 'Name?' },
    { inputId: 'dup-1', options: ['same', 'same', { name: 'Named' }] },
  ];
  const answersOf = (interrupt: Interrupt): unknown[] => {
    if (interrupt.reason === 'tool_call') return [{ decision: 'allow_once' }, { decision: 'deny' }];
    const options = interrupt.metadata?.standardOptions as { id: string }[];
    const takesFreeText = interrupt.metadata?.allowFreeText === true || options.length === 0;
    return [
      ...options.map((option) => ({ selectedId: option.id })),
      ...(takesFreeText ? [{ freeText: 'x' }] : []),
    ];
  };

  it.each(inputs)('$inputId accepts each of its standard answers', (input) => {
    const interrupt = buildInterrupt(input, { fallbackMessage });
    const answers = answersOf(interrupt);
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) {
      expect([answer, validator.validate(interrupt.responseSchema!, answer)]).toEqual([answer, true]);
    }
  });

  const rejected: { name: string; input: PersistedInput; payload: unknown }[] = [
    {
      name: 'permission: decision "allow"',
      input: projectInput(PERMISSION_FROM_A2A),
      payload: { decision: 'allow' },
    },
    { name: 'permission: no decision', input: projectInput(PERMISSION_FROM_A2A), payload: {} },
    {
      name: 'permission: an extra key',
      input: projectInput(PERMISSION_FROM_A2A),
      payload: { decision: 'deny', reason: 'no' },
    },
    { name: 'permission: not an object', input: projectInput(PERMISSION_FROM_A2A), payload: 'allow_once' },
    { name: 'question: an unknown option', input: QUESTION, payload: { selectedId: 'plan-c' } },
    { name: 'question: free text it does not allow', input: QUESTION, payload: { freeText: 'Plan C' } },
    {
      name: 'question: option plus a title',
      input: QUESTION,
      payload: { selectedId: 'plan-a', title: 'Plan A' },
    },
    { name: 'free text: empty', input: { inputId: 'free-1' }, payload: { freeText: '' } },
    { name: 'free text: not a string', input: { inputId: 'free-1' }, payload: { freeText: 3 } },
  ];

  it.each(rejected)('rejects $name', ({ input, payload }) => {
    expect(validator.validate(buildInterrupt(input, { fallbackMessage }).responseSchema!, payload)).toBe(
      false,
    );
  });

  it('accepts free text where the input allows it', () => {
    const interrupt = buildInterrupt({ ...QUESTION, allowFreeText: true }, { fallbackMessage });
    expect(validator.validate(interrupt.responseSchema!, { freeText: 'Plan C' })).toBe(true);
  });
});
