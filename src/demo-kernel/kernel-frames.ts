import { createHash } from 'node:crypto';
import type { KernelFrame, KernelTurnInput } from './kernel-script';

/**
 * Pure builders for the frames the iac-code kernel sends (docs/behaviour/a2a.md#the-kernels-own-behaviour, "Text", "End of a
 * normal turn"; docs/behaviour/events.md#unwrapping-frames–docs/behaviour/events.md#tools). Every status update carries `metadata.iac_code.iacCodeSessionId`,
 * as the kernel's do once its session exists.
 */

type Ids = Pick<KernelTurnInput, 'taskId' | 'contextId' | 'sessionId'>;

export type KernelTaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_INPUT_REQUIRED';

/** `iac_code.tool` as the kernel sends it (docs/behaviour/events.md#tools). */
export interface KernelToolEvent {
  readonly status: 'started' | 'input_delta' | 'input_complete' | 'progress' | 'completed' | 'failed';
  readonly toolUseId: string;
  readonly name: string;
  readonly toolInput?: Readonly<Record<string, unknown>>;
  readonly inputSummary?: string;
  readonly result?: unknown;
  readonly [extra: string]: unknown;
}

export interface KernelUsage {
  readonly provider: string;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  readonly cachedInputTokens: number;
}

/** `session-<first 12 hex of sha256(contextId)>`: stable per context, like the kernel's session id. */
export function kernelSessionId(contextId: string): string {
  return `session-${createHash('sha256').update(contextId, 'utf8').digest('hex').slice(0, 12)}`;
}

/** The agent message id the kernel uses for a task's answer: one id for every delta of the turn. */
export function kernelMessageId(taskId: string): string {
  return `${taskId}-message`;
}

export function statusFrame(
  ids: Ids,
  state: KernelTaskState,
  options: { text?: string; messageId?: string; iacCode?: Readonly<Record<string, unknown>> } = {},
): KernelFrame {
  const status: Record<string, unknown> = { state };
  if (options.text !== undefined) {
    status.message = {
      messageId: options.messageId ?? kernelMessageId(ids.taskId),
      role: 'ROLE_AGENT',
      parts: [{ text: options.text }],
    };
  }
  return {
    statusUpdate: {
      taskId: ids.taskId,
      contextId: ids.contextId,
      status,
      metadata: { iac_code: { iacCodeSessionId: ids.sessionId, ...options.iacCode } },
    },
  };
}

/** One text delta: a WORKING update whose `status.message` holds only the new text (docs/behaviour/a2a.md#the-kernels-own-behaviour). */
export function textDeltaFrame(ids: Ids, text: string): KernelFrame {
  return statusFrame(ids, 'TASK_STATE_WORKING', { text });
}

export function thinkingFrame(ids: Ids, text: string): KernelFrame {
  return statusFrame(ids, 'TASK_STATE_WORKING', { iacCode: { thinking: { type: 'raw_thinking', text } } });
}

export function toolFrame(ids: Ids, tool: KernelToolEvent): KernelFrame {
  return statusFrame(ids, 'TASK_STATE_WORKING', { iacCode: { tool } });
}

export function usageFrame(ids: Ids, usage: KernelUsage): KernelFrame {
  return statusFrame(ids, 'TASK_STATE_WORKING', { iacCode: { usage } });
}

export function artifactFrame(
  ids: Ids,
  artifact: { artifactId: string; name: string; text: string; mediaType: string },
): KernelFrame {
  return {
    artifactUpdate: {
      taskId: ids.taskId,
      contextId: ids.contextId,
      artifact: {
        artifactId: artifact.artifactId,
        name: artifact.name,
        parts: [{ text: artifact.text, mediaType: artifact.mediaType }],
      },
      lastChunk: true,
    },
  };
}

/**
 * The kernel's end of a normal turn: a WORKING frame repeating the whole answer with
 * `assistantFinal.complete: true`, then INPUT_REQUIRED without any input, after which the stream closes
 * (docs/behaviour/a2a.md#the-kernels-own-behaviour). The gateway drops the repeat and reports success.
 */
export function endOfTurnFrames(ids: Ids, fullAnswer: string): readonly KernelFrame[] {
  return [
    statusFrame(ids, 'TASK_STATE_WORKING', {
      text: fullAnswer,
      iacCode: { assistantFinal: { complete: true } },
    }),
    statusFrame(ids, 'TASK_STATE_INPUT_REQUIRED'),
  ];
}
