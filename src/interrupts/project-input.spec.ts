import { projectInput } from './project-input';

const projectionCases: { name: string; value: Record<string, unknown>; expected: Record<string, unknown> }[] =
  [
    {
      name: 'keeps the allow-listed fields and drops tool input and secrets (docs/behaviour/state.md#never-stored)',
      value: {
        kind: 'permission',
        inputId: 'permission-1',
        toolUseId: 'tool-1',
        required: true,
        toolInput: { command: 'cat ~/.aws/credentials' },
        llmApiKey: 'sk-secret',
        result: 'output',
      },
      expected: { kind: 'permission', inputId: 'permission-1', toolUseId: 'tool-1', required: true },
    },
    {
      name: 'keeps scope, subPipelineId, operation and displayParameters unchanged',
      value: {
        inputId: 'p-1',
        scope: 'candidate',
        subPipelineId: 'candidate-0',
        operation: { type: 'deploy', stack: 'vpc' },
        displayParameters: [{ name: 'Region', value: 'cn-hangzhou' }],
        selector: { id: 'vpc.vpc' },
      },
      expected: {
        inputId: 'p-1',
        scope: 'candidate',
        subPipelineId: 'candidate-0',
        operation: { type: 'deploy', stack: 'vpc' },
        displayParameters: [{ name: 'Region', value: 'cn-hangzhou' }],
        selector: { id: 'vpc.vpc' },
      },
    },
    {
      name: 'stringifies a non-string inputId as Python str() does',
      value: { inputId: 7, kind: 'ask_user_question' },
      expected: { inputId: '7', kind: 'ask_user_question' },
    },
  ];

describe('projectInput', () => {
  it.each(projectionCases)('$name', ({ value, expected }) => {
    expect(projectInput(value)).toEqual(expected);
  });

  it('deep-copies, so the frame and the stored state never alias', () => {
    const value = { inputId: 'ask-1', options: [{ id: 'a', label: 'A' }] };
    const projection = projectInput(value);
    value.options[0].label = 'changed';
    expect(projection.options).toEqual([{ id: 'a', label: 'A' }]);
  });

  it('derives a stable id from the content when inputId is missing or empty', () => {
    const first = projectInput({ kind: 'ask_user_question', prompt: 'Which?', inputId: '' });
    const again = projectInput({ kind: 'ask_user_question', prompt: 'Which?', inputId: '' });
    const other = projectInput({ kind: 'ask_user_question', prompt: 'Other?' });
    expect(first.inputId).toMatch(/^input-[0-9a-f]{32}$/);
    expect(again.inputId).toBe(first.inputId);
    expect(other.inputId).not.toBe(first.inputId);
  });
});
