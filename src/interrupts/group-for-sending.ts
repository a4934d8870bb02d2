import type { A2aPart } from '../wire/a2a-wire';
import type { EncodedAnswer, SyntheticToolResult } from './encode-answer';

/** An answer to record as applied (digest stored, pending entry removed, persisted) once A2A accepts it. */
export interface AnswerCommit {
  interruptId: string;
  digest: string;
}

/** One A2A call of a resume. Its acceptance (first frame, or a non-error SendMessage result) commits `commits`. */
export interface SendStep {
  method: 'SendMessage' | 'SendStreamingMessage';
  messageId: string;
  parts: A2aPart[];
  commits: AnswerCommit[];
  /** TOOL_CALL_RESULT events to emit after acceptance (answered question tools). */
  syntheticToolResults: SyntheticToolResult[];
}

/**
 * How the run goes on after its steps (docs/behaviour/interrupts.md#forwarding-answers):
 * - `snapshot-then-subscribe`: one GetTask, then SubscribeToTask unless terminal, with the re-GetTask rule
 *   of this scenario (the sideband path: the SendMessage answers carry no stream);
 * - `subscribe-unless-terminal`: map the streams of the steps, then SubscribeToTask if none of them reported
 *   a terminal or input-required state (and, with no steps at all, just subscribe);
 * - `follow-stream`: the last step's stream is the run (the prompt path; docs/behaviour/interrupts.md#continuation continuation applies).
 */
export type SendContinuation = 'snapshot-then-subscribe' | 'subscribe-unless-terminal' | 'follow-stream';

export type SendPlan =
  { kind: 'cancel-execution' } | { kind: 'send'; steps: SendStep[]; then: SendContinuation };

/**
 * The docs/behaviour/interrupts.md#forwarding-answers decision of how to send encoded answers ( `_apply_resume`):
 * - a cancelled question anywhere → cancel the execution, send nothing;
 * - only permissions, all sideband → one SendMessage each (`agui-resume-<interruptId>`, the original's id),
 *   committed one by one, so a partial failure never resends an accepted one;
 * - only permissions otherwise → one SendStreamingMessage each (`agui-resume-<runId>-<interruptId>`);
 * - questions → one SendStreamingMessage (`agui-resume-<runId>`) with the answer text.
 *
 * Two deliberate departures from the original, which sent only the *last* prompt while committing all of
 * them, and with a mix of permissions and questions sent only the prompt and left the permissions pending
 * for ever: here several question answers are joined, in resume order, one per paragraph, into the one
 * prompt; and permissions answered together with questions are sent first, each by SendMessage and
 * committed on its own, then the prompt. On the kernel only sideband permissions can be pending next to a
 * question — a direct permission or question ends its stream at INPUT_REQUIRED alone (kernel-wire "Where
 * inputs travel") — so SendMessage is the call those permissions take anyway.
 */
export function groupForSending(encoded: readonly EncodedAnswer[], runId: string): SendPlan {
  if (encoded.some((answer) => answer.kind === 'cancel-execution')) return { kind: 'cancel-execution' };
  const permissions = encoded.filter((answer) => answer.kind === 'permission');
  const prompts = encoded.filter((answer) => answer.kind === 'prompt');
  if (prompts.length > 0) {
    const promptStep: SendStep = {
      method: 'SendStreamingMessage',
      messageId: `agui-resume-${runId}`,
      parts: [{ text: prompts.map((prompt) => prompt.text).join('\n\n') }],
      commits: prompts.map(commitOf),
      syntheticToolResults: prompts.flatMap((prompt) =>
        prompt.syntheticToolResult ? [prompt.syntheticToolResult] : [],
      ),
    };
    return { kind: 'send', steps: [...permissions.map(sidebandStep), promptStep], then: 'follow-stream' };
  }
  if (permissions.length > 0 && permissions.every((permission) => permission.sideband)) {
    return { kind: 'send', steps: permissions.map(sidebandStep), then: 'snapshot-then-subscribe' };
  }
  return {
    kind: 'send',
    steps: permissions.map((permission) => ({
      method: 'SendStreamingMessage',
      messageId: `agui-resume-${runId}-${permission.interruptId}`,
      parts: [permission.part],
      commits: [commitOf(permission)],
      syntheticToolResults: [],
    })),
    then: 'subscribe-unless-terminal',
  };
}

function sidebandStep(permission: Extract<EncodedAnswer, { kind: 'permission' }>): SendStep {
  return {
    method: 'SendMessage',
    messageId: `agui-resume-${permission.interruptId}`,
    parts: [permission.part],
    commits: [commitOf(permission)],
    syntheticToolResults: [],
  };
}

function commitOf(answer: { interruptId: string; digest: string }): AnswerCommit {
  return { interruptId: answer.interruptId, digest: answer.digest };
}
