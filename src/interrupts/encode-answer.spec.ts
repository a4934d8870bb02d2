import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { PendingInterruptEntry, PersistedInput } from './pending-interrupt';
import { encodeAnswer, encodeAnswers, resumeText, type EncodedAnswer } from './encode-answer';
import type { PlannedAnswer } from './resume-plan';

const PERMISSION: PendingInterruptEntry = {
  value: { kind: 'permission', requestTaskId: 'task-1', inputId: 'permission-1', toolUseId: 'tool-1' },
  sideband: true,
};
const QUESTION: PendingInterruptEntry = {
  value: {
    kind: 'ask_user_question',
    inputId: 'ask-1',
    toolUseId: 'ask-1',
    options: [{ id: 'plan-a', label: 'Plan A' }, { id: 'plan-b', name: 'Plan B' }, { id: 3 }],
  },
  sideband: false,
};
const planned = (
  entry: PendingInterruptEntry,
  status: 'resolved' | 'cancelled',
  payload: unknown,
): PlannedAnswer => ({
  interruptId: entry.value.inputId,
  entry,
  status,
  payload,
  digest: `digest-${entry.value.inputId}`,
});

const encodeCases: { name: string; answer: PlannedAnswer; expected: EncodedAnswer }[] = [
  {
    name: 'a permission becomes the exact DataPart of docs/behaviour/interrupts.md#forwarding-answers',
    answer: planned(PERMISSION, 'resolved', { decision: 'allow_once' }),
    expected: {
      kind: 'permission',
      interruptId: 'permission-1',
      digest: 'digest-permission-1',
      sideband: true,
      part: {
        data: {
          schemaVersion: 1,
          kind: 'permission',
          requestTaskId: 'task-1',
          inputId: 'permission-1',
          toolUseId: 'tool-1',
          decision: 'allow_once',
        },
        mediaType: 'application/json',
      },
    },
  },
  {
    name: 'a cancelled permission denies',
    answer: planned(PERMISSION, 'cancelled', { decision: 'deny' }),
    expected: expect.objectContaining({
      part: expect.objectContaining({ data: expect.objectContaining({ decision: 'deny' }) }),
    }),
  },
  {
    name: 'a selected option is sent as its label, with a synthetic tool result',
    answer: planned(QUESTION, 'resolved', { selectedId: 'plan-b' }),
    expected: {
      kind: 'prompt',
      interruptId: 'ask-1',
      digest: 'digest-ask-1',
      text: 'Plan B',
      syntheticToolResult: { toolCallId: 'ask-1', content: 'Plan B' },
    },
  },
  {
    name: 'a question without toolUseId has no synthetic tool result',
    answer: planned({ value: { inputId: 'q-1' }, sideband: false }, 'resolved', { freeText: 'my own' }),
    expected: { kind: 'prompt', interruptId: 'q-1', digest: 'digest-q-1', text: 'my own' },
  },
  {
    name: 'a cancelled question cancels the execution',
    answer: planned(QUESTION, 'cancelled', null),
    expected: { kind: 'cancel-execution', interruptId: 'ask-1' },
  },
];

const textCases: { name: string; value: PersistedInput; payload: unknown; expected: string }[] = [
  {
    name: 'freeText wins',
    value: QUESTION.value,
    payload: { freeText: 'typed', selectedId: 'plan-a' },
    expected: 'typed',
  },
  {
    name: 'free_text is read too',
    value: QUESTION.value,
    payload: { free_text: 'snake' },
    expected: 'snake',
  },
  {
    name: 'label of the option',
    value: QUESTION.value,
    payload: { selectedId: 'plan-a' },
    expected: 'Plan A',
  },
  {
    name: 'name when there is no label',
    value: QUESTION.value,
    payload: { selected_id: 'plan-b' },
    expected: 'Plan B',
  },
  {
    name: 'an option id compared as str()',
    value: QUESTION.value,
    payload: { selectedId: '3' },
    expected: '3',
  },
  {
    name: 'the raw id of an unknown option',
    value: QUESTION.value,
    payload: { selectedId: 'plan-z' },
    expected: 'plan-z',
  },
  {
    name: 'empty free text falls through to the option',
    value: QUESTION.value,
    payload: { freeText: '', selectedId: 'plan-a' },
    expected: 'Plan A',
  },
  { name: 'nothing usable', value: QUESTION.value, payload: { selectedId: 7 }, expected: '' },
  { name: 'not an object', value: QUESTION.value, payload: 'Plan A', expected: '' },
];

describe('encodeAnswer', () => {
  it.each(encodeCases)('$name', ({ answer, expected }) => {
    expect(encodeAnswer(answer, 'task-1')).toEqual(expected);
  });

  it('refuses a question answer without text', () => {
    const attempt = () => encodeAnswer(planned(QUESTION, 'resolved', { selectedId: '' }), 'task-1');
    expect(attempt).toThrow(AguiError);
    expect(attempt).toThrow(
      expect.objectContaining({
        code: ErrorCode.RESUME_PAYLOAD_INVALID,
        messageKey: 'responseWithoutAnswer',
      }),
    );
  });
});

describe('resumeText', () => {
  it.each(textCases)('$name', ({ value, payload, expected }) => {
    expect(resumeText(value, payload)).toBe(expected);
  });
});

describe('encodeAnswers', () => {
  it('stops at a cancelled question, which makes later answers moot', () => {
    const encoded = encodeAnswers(
      [
        planned(PERMISSION, 'resolved', { decision: 'allow_once' }),
        planned(QUESTION, 'cancelled', null),
        planned({ value: { inputId: 'q-1' }, sideband: false }, 'resolved', {}),
      ],
      'task-1',
    );
    expect(encoded.map((item) => item.kind)).toEqual(['permission', 'cancel-execution']);
  });

  it('throws at the first question without an answer, before a later cancellation', () => {
    expect(() =>
      encodeAnswers(
        [
          planned({ value: { inputId: 'q-1' }, sideband: false }, 'resolved', {}),
          planned(QUESTION, 'cancelled', null),
        ],
        'task-1',
      ),
    ).toThrow(expect.objectContaining({ messageKey: 'responseWithoutAnswer' }));
  });
});
