import type { EncodedAnswer } from './encode-answer';
import { groupForSending, type SendPlan } from './group-for-sending';

const permission = (interruptId: string, sideband: boolean): EncodedAnswer => ({
  kind: 'permission',
  interruptId,
  digest: `d-${interruptId}`,
  sideband,
  part: { data: { inputId: interruptId }, mediaType: 'application/json' },
});
const prompt = (interruptId: string, text: string, toolCallId?: string): EncodedAnswer => ({
  kind: 'prompt',
  interruptId,
  digest: `d-${interruptId}`,
  text,
  ...(toolCallId ? { syntheticToolResult: { toolCallId, content: text } } : {}),
});
const partOf = (interruptId: string) => ({ data: { inputId: interruptId }, mediaType: 'application/json' });

const groupCases: { name: string; encoded: EncodedAnswer[]; expected: SendPlan }[] = [
  {
    name: 'all sideband permissions: one SendMessage each, then snapshot and subscribe',
    encoded: [permission('p-1', true), permission('p-2', true)],
    expected: {
      kind: 'send',
      steps: [
        {
          method: 'SendMessage',
          messageId: 'agui-resume-p-1',
          parts: [partOf('p-1')],
          commits: [{ interruptId: 'p-1', digest: 'd-p-1' }],
          syntheticToolResults: [],
        },
        {
          method: 'SendMessage',
          messageId: 'agui-resume-p-2',
          parts: [partOf('p-2')],
          commits: [{ interruptId: 'p-2', digest: 'd-p-2' }],
          syntheticToolResults: [],
        },
      ],
      then: 'snapshot-then-subscribe',
    },
  },
  {
    name: 'a direct permission among them: one SendStreamingMessage each',
    encoded: [permission('p-1', false), permission('p-2', true)],
    expected: {
      kind: 'send',
      steps: [
        {
          method: 'SendStreamingMessage',
          messageId: 'agui-resume-run-2-p-1',
          parts: [partOf('p-1')],
          commits: [{ interruptId: 'p-1', digest: 'd-p-1' }],
          syntheticToolResults: [],
        },
        {
          method: 'SendStreamingMessage',
          messageId: 'agui-resume-run-2-p-2',
          parts: [partOf('p-2')],
          commits: [{ interruptId: 'p-2', digest: 'd-p-2' }],
          syntheticToolResults: [],
        },
      ],
      then: 'subscribe-unless-terminal',
    },
  },
  {
    name: 'one question: one SendStreamingMessage with its text',
    encoded: [prompt('ask-1', 'Plan B', 'ask-1')],
    expected: {
      kind: 'send',
      steps: [
        {
          method: 'SendStreamingMessage',
          messageId: 'agui-resume-run-2',
          parts: [{ text: 'Plan B' }],
          commits: [{ interruptId: 'ask-1', digest: 'd-ask-1' }],
          syntheticToolResults: [{ toolCallId: 'ask-1', content: 'Plan B' }],
        },
      ],
      then: 'follow-stream',
    },
  },
  {
    name: 'several questions: their answers joined in one prompt, all committed',
    encoded: [prompt('ask-1', 'Plan B', 'ask-1'), prompt('ask-2', 'eu-west')],
    expected: {
      kind: 'send',
      steps: [
        {
          method: 'SendStreamingMessage',
          messageId: 'agui-resume-run-2',
          parts: [{ text: 'Plan B\n\neu-west' }],
          commits: [
            { interruptId: 'ask-1', digest: 'd-ask-1' },
            { interruptId: 'ask-2', digest: 'd-ask-2' },
          ],
          syntheticToolResults: [{ toolCallId: 'ask-1', content: 'Plan B' }],
        },
      ],
      then: 'follow-stream',
    },
  },
  {
    name: 'a permission with a question: the permission by SendMessage first, then the prompt',
    encoded: [prompt('ask-1', 'Plan B'), permission('p-2', true)],
    expected: {
      kind: 'send',
      steps: [
        {
          method: 'SendMessage',
          messageId: 'agui-resume-p-2',
          parts: [partOf('p-2')],
          commits: [{ interruptId: 'p-2', digest: 'd-p-2' }],
          syntheticToolResults: [],
        },
        {
          method: 'SendStreamingMessage',
          messageId: 'agui-resume-run-2',
          parts: [{ text: 'Plan B' }],
          commits: [{ interruptId: 'ask-1', digest: 'd-ask-1' }],
          syntheticToolResults: [],
        },
      ],
      then: 'follow-stream',
    },
  },
  {
    name: 'a cancelled question anywhere cancels the execution',
    encoded: [permission('p-1', true), { kind: 'cancel-execution', interruptId: 'ask-1' }],
    expected: { kind: 'cancel-execution' },
  },
  {
    name: 'nothing to send: just subscribe',
    encoded: [],
    expected: { kind: 'send', steps: [], then: 'subscribe-unless-terminal' },
  },
];

describe('groupForSending', () => {
  it.each(groupCases)('$name', ({ encoded, expected }) => {
    expect(groupForSending(encoded, 'run-2')).toEqual(expected);
  });
});
