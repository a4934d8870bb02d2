import {
  lastUserText,
  messageText,
  type ChatMessage,
  type ChatRequest,
  type LlmReply,
} from './scripted-llm-server';

/**
 * The words a test puts in its user message to pick the model's behaviour. The model reads the whole
 * conversation the kernel sends, so a reply also depends on the tool results already in it.
 */
export const Marker = {
  /** `write-file <name>`: a `bash` call writing `<name>` in the workspace; after its result, a text answer. */
  writeFile: 'write-file',
  /** Reasoning (`reasoning_content`), then text. */
  think: 'think-first',
  /** A reply that starts and then waits until the test releases it (ScriptedLlm.nextHeld). */
  slow: 'slow-reply',
  /** HTTP 400 from the model (not retried by the kernel). */
  fail: 'model-fails',
} as const;

/** What the `bash` call writes, so a test can read the file back. */
export const WRITTEN_CONTENT = 'written by the kernel';
export const REASONING_TEXT = 'Weighing the request first.';
export const HELD_FIRST = 'Starting. ';
export const HELD_REST = 'Finished after the hold.';
export const QUESTION = {
  question: 'Which region should the resources go to?',
  options: [
    { id: 'hangzhou', label: 'Hangzhou' },
    { id: 'beijing', label: 'Beijing' },
  ],
  allow_free_text: true,
};

/** The text of a reply to plain message number `turn` (1-based count of user messages). */
export const plainAnswer = (turn: number): string => `Scripted answer number ${turn}.`;
export const afterToolAnswer = (result: string): string => `The tool said: ${result.slice(0, 80)}`;

/**
 * The scripted model for the real kernel. In a `selling` Pipeline step that offers `ask_user_question`, it
 * asks the question, then completes the step as "not an infrastructure request" once answered (the step's
 * exit condition, so the Pipeline ends early and COMPLETED).
 */
export function chooseKernelReply(request: ChatRequest): LlmReply {
  const { messages } = request.body;
  const tools = new Set((request.body.tools ?? []).map((tool) => tool.function.name));
  const userText = lastUserText(request);
  const turn = messages.filter((m) => m.role === 'user').length;
  const lastToolResult = messages.at(-1)?.role === 'tool' ? messageText(messages.at(-1)) : undefined;

  if (tools.has('ask_user_question')) return pipelineStep(messages);
  if (userText.includes(Marker.fail))
    return { kind: 'http-error', status: 400, message: 'scripted model failure' };
  if (userText.includes(Marker.slow)) return { kind: 'held', first: HELD_FIRST, rest: HELD_REST };
  if (lastToolResult !== undefined) return { kind: 'text', text: afterToolAnswer(lastToolResult) };
  const file = new RegExp(`${Marker.writeFile} (\\S+)`).exec(userText)?.[1];
  if (file) {
    return {
      kind: 'tool-call',
      name: 'bash',
      arguments: { command: `printf '${WRITTEN_CONTENT}' > ${file}`, description: `Write ${file}` },
    };
  }
  if (userText.includes(Marker.think))
    return { kind: 'text', text: plainAnswer(turn), reasoning: REASONING_TEXT };
  return { kind: 'text', text: plainAnswer(turn) };
}

function pipelineStep(messages: ChatMessage[]): LlmReply {
  const calledTools = new Map(
    messages.flatMap((m) => m.tool_calls ?? []).map((call) => [call.id, call.function.name] as const),
  );
  const answered = (name: string) =>
    messages.some((m) => m.role === 'tool' && calledTools.get(m.tool_call_id ?? '') === name);
  if (!answered('ask_user_question'))
    return { kind: 'tool-call', name: 'ask_user_question', arguments: QUESTION };
  if (!answered('complete_step')) {
    return {
      kind: 'tool-call',
      name: 'complete_step',
      arguments: {
        conclusion: {
          is_infra_intent: false,
          confidence: 'high',
          category: 'other',
          rejection_reason: 'A scripted conversation, not a deployment request.',
        },
      },
    };
  }
  return { kind: 'text', text: 'The step is complete.' };
}
