import { DEMO_TOOL_NAME } from './demo-turn-script';
import type { KernelStep, KernelTurnInput } from './kernel-script';
import {
  DEFAULT_KERNEL_SCRIPT,
  KERNEL_SCRIPT_KEYWORDS,
  scriptFlagsOf,
  selectKernelScript,
} from './kernel-scripts';

const input: KernelTurnInput = {
  userText: 'create a VPC',
  taskId: 'task-1',
  contextId: 'ctx-1',
  sessionId: 'session-abc',
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One label per step, so a whole script reads as a line: text, thinking, tool:started, pause, … */
function labelOf(step: KernelStep): string {
  if (step.kind === 'pause') return 'pause';
  if (step.kind === 'park') return `park:${step.answersCancel ? 'answers' : 'ignores'}-cancel`;
  if (step.kind === 'fault') return `fault:${step.fault.kind}`;
  if (step.kind === 'await') return `await:${step.inputIds.join('+')}${step.parkFrame ? ':park' : ''}`;
  if (step.kind === 'await-guidance') return 'await-guidance';
  if (step.kind === 'hold') return 'hold';
  const frame = step.frame as Json;
  if (frame.artifactUpdate) return 'artifact';
  const update = frame.statusUpdate as Json;
  const iacCode = update.metadata.iac_code as Json;
  if (iacCode.assistantFinal) return 'final';
  if (iacCode.thinking) return 'thinking';
  if (iacCode.tool) return `tool:${iacCode.tool.status}`;
  if (iacCode.usage) return 'usage';
  if (update.status.state !== 'TASK_STATE_WORKING') return update.status.state;
  return update.status.message ? 'text' : 'working';
}

const framesOf = (steps: readonly KernelStep[]): Json[] =>
  steps.flatMap((step) => (step.kind === 'frame' ? [step.frame as Json] : []));
const textOf = (frame: Json): string | undefined => frame.statusUpdate?.status?.message?.parts?.[0]?.text;

describe('selectKernelScript', () => {
  it.each([
    { name: 'keyword alone', text: 'drop', expected: 'drop' },
    { name: 'keyword then more words', text: 'slow please, take your time', expected: 'slow' },
    { name: 'case-insensitive, leading blanks', text: '  HANG-CANCEL now', expected: 'hang-cancel' },
    { name: 'keyword must be the first word', text: 'please drop', expected: 'demo' },
    { name: 'a longer word is not the keyword', text: 'dropping tables', expected: 'demo' },
    { name: 'empty text', text: '', expected: 'demo' },
    { name: 'interrupt keyword with a flag', text: 'permission backup-not-ready', expected: 'permission' },
    { name: 'two-word keyword', text: 'Two-Permissions please', expected: 'two-permissions' },
    { name: 'any other text', text: 'Create a VPC in Hangzhou', expected: 'demo' },
    {
      name: 'a keyword with flags',
      text: 'pipeline-selection empty-input eof',
      expected: 'pipeline-selection',
    },
  ])('$name → $expected', ({ text, expected }) => {
    expect(selectKernelScript(text).name).toBe(expected);
  });

  it('documents every script under its own keyword, with a one-line description', () => {
    for (const row of KERNEL_SCRIPT_KEYWORDS) {
      expect(row.script.name).toBe(row.keyword);
      expect(row.description).toMatch(/^[^\n]{10,100}$/);
    }
    expect(KERNEL_SCRIPT_KEYWORDS.map((row) => row.keyword)).toEqual([
      'drop',
      'rpc-error',
      'http-500',
      'fail',
      'slow',
      'flood',
      'silent',
      'hang-cancel',
      'permission',
      'question',
      'two-permissions',
      'pipeline',
      'pipeline-selection',
    ]);
  });
});

describe('scriptFlagsOf', () => {
  it.each([
    { text: 'permission backup-not-ready', expected: ['backup-not-ready'] },
    { text: '  Question  Backup-Not-Ready  now ', expected: ['backup-not-ready', 'now'] },
    { text: 'backup-not-ready', expected: [] },
    { text: '', expected: [] },
  ])('$text → $expected', ({ text, expected }) => {
    expect(scriptFlagsOf(text)).toEqual(expected);
  });
});

describe('default demo script', () => {
  const steps = DEFAULT_KERNEL_SCRIPT.steps(input);
  const frames = framesOf(steps);

  it('plays reasoning, text, one tool lifecycle, more text, usage, an artifact and the kernel end of turn', () => {
    expect(steps.filter((step) => step.kind !== 'pause').map(labelOf)).toEqual([
      'thinking',
      'thinking',
      'text',
      'text',
      'text',
      'tool:started',
      'tool:input_complete',
      'tool:progress',
      'tool:completed',
      'text',
      'text',
      'usage',
      'artifact',
      'final',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
  });

  it('echoes the user text, and the final frame repeats exactly the streamed deltas', () => {
    const deltas = frames
      .slice(0, -2)
      .map(textOf)
      .filter((text) => text !== undefined);
    const final = frames[frames.length - 2];
    expect(deltas.join('')).toContain('“create a VPC”');
    expect(textOf(final)).toBe(deltas.join(''));
    expect(final.statusUpdate.metadata.iac_code.assistantFinal).toEqual({ complete: true });
  });

  it('ends with INPUT_REQUIRED without any input or message', () => {
    expect(frames[frames.length - 1]).toEqual({
      statusUpdate: {
        taskId: 'task-1',
        contextId: 'ctx-1',
        status: { state: 'TASK_STATE_INPUT_REQUIRED' },
        metadata: { iac_code: { iacCodeSessionId: 'session-abc' } },
      },
    });
  });

  it('uses one tool id and name, with input, progress and a string result', () => {
    const tools = frames.map((frame) => frame.statusUpdate?.metadata.iac_code.tool).filter(Boolean) as Json[];
    expect(new Set(tools.map((tool) => `${tool.toolUseId}|${tool.name}`))).toEqual(
      new Set([`task-1-tool-1|${DEMO_TOOL_NAME}`]),
    );
    expect(Object.keys(tools[1].toolInput).sort()).toEqual(['regionId', 'templateBody']);
    expect(typeof tools[3].result).toBe('string');
  });

  it('reports usage with the six kernel counters, total = input + output', () => {
    const usage = frames.map((frame) => frame.statusUpdate?.metadata.iac_code.usage).find(Boolean) as Json;
    expect(usage).toEqual({
      provider: 'demo',
      model: 'iac-demo-1',
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
      totalTokens: usage.inputTokens + usage.outputTokens,
      cachedInputTokens: 0,
    });
  });

  it('puts the session id on every status update and keeps one agent message id', () => {
    const updates = frames.filter((frame) => frame.statusUpdate).map((frame) => frame.statusUpdate as Json);
    expect(updates.every((update) => update.metadata.iac_code.iacCodeSessionId === 'session-abc')).toBe(true);
    const messageIds = new Set(updates.map((update) => update.status.message?.messageId).filter(Boolean));
    expect(messageIds).toEqual(new Set(['task-1-message']));
  });
});

describe('failure scripts', () => {
  const labels = (keyword: string): string[] =>
    selectKernelScript(keyword)
      .steps(input)
      .filter((step) => step.kind !== 'pause')
      .map(labelOf);

  it.each([
    { keyword: 'drop', expected: ['text', 'thinking', 'tool:started', 'hold', 'fault:drop'] },
    { keyword: 'rpc-error', expected: ['text', 'fault:rpc-error'] },
    { keyword: 'fail', expected: ['text', 'TASK_STATE_FAILED'] },
    { keyword: 'silent', expected: ['park:answers-cancel'] },
    { keyword: 'hang-cancel', expected: ['park:ignores-cancel'] },
    { keyword: 'http-500', expected: [] },
  ])('$keyword plays $expected', ({ keyword, expected }) => {
    expect(labels(keyword)).toEqual(expected);
  });

  it('http-500 answers before any stream', () => {
    expect(selectKernelScript('http-500').preStreamHttpStatus).toBe(500);
    expect(DEFAULT_KERNEL_SCRIPT.preStreamHttpStatus).toBeUndefined();
  });

  it('rpc-error carries a JSON-RPC internal error', () => {
    const fault = selectKernelScript('rpc-error')
      .steps(input)
      .find((step) => step.kind === 'fault');
    expect(fault).toEqual({
      kind: 'fault',
      fault: { kind: 'rpc-error', code: -32603, message: 'Internal error' },
    });
  });

  it('slow spaces 33 deltas 300 ms apart (about 10 s), then ends the turn like the kernel', () => {
    const steps = selectKernelScript('slow').steps(input);
    const pauses = steps.flatMap((step) => (step.kind === 'pause' ? [step.ms] : []));
    expect(pauses).toEqual(Array(33).fill(300));
    expect(steps.map(labelOf).slice(-2)).toEqual(['final', 'TASK_STATE_INPUT_REQUIRED']);
    expect(steps.map(labelOf).filter((label) => label === 'text')).toHaveLength(33);
  });
});
