import type { IacCodeProps } from './iac-code-props';

// The validated AG-UI 1.0 RunAgentInput as plain data (docs/behaviour/run-input.md#envelope), plus the legacy
// `binary` part that 0.0.x clients still send. Shapes mirror src/runs/dto/, which checks them.

export interface TextPart {
  readonly type: 'text';
  readonly text: string;
  readonly id?: string;
  readonly metadata?: unknown;
}

export type PartSource =
  | { readonly type: 'data'; readonly value: string; readonly mimeType: string }
  | { readonly type: 'url'; readonly value: string; readonly mimeType?: string }
  | { readonly type: 'file'; readonly value: string; readonly provider?: string; readonly mimeType?: string };

export interface MediaPart {
  readonly type: 'image' | 'audio' | 'video' | 'document';
  readonly source: PartSource;
  readonly id?: string;
  readonly metadata?: unknown;
}

/** Pre-1.0 media part: one of id, url or data is set. */
export interface BinaryPart {
  readonly type: 'binary';
  readonly mimeType: string;
  readonly id?: string;
  readonly url?: string;
  readonly data?: string;
  readonly filename?: string;
}

export type ContentPart = TextPart | MediaPart | BinaryPart;

export interface ToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
  readonly encryptedValue?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

interface MessageFields {
  readonly id: string;
  readonly subagentRunId?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

interface NamedMessageFields extends MessageFields {
  readonly name?: string;
  readonly encryptedValue?: string;
}

export interface DeveloperMessage extends NamedMessageFields {
  readonly role: 'developer';
  readonly content: string;
}

export interface SystemMessage extends NamedMessageFields {
  readonly role: 'system';
  readonly content: string;
}

export interface AssistantMessage extends NamedMessageFields {
  readonly role: 'assistant';
  readonly content?: string;
  readonly toolCalls?: readonly ToolCall[];
}

export interface UserMessage extends NamedMessageFields {
  readonly role: 'user';
  readonly content: string | readonly ContentPart[];
}

export interface ToolMessage extends MessageFields {
  readonly role: 'tool';
  readonly content: string | readonly ContentPart[];
  readonly toolCallId: string;
  readonly error?: string;
  readonly encryptedValue?: string;
}

export interface ActivityMessage extends MessageFields {
  readonly role: 'activity';
  readonly activityType: string;
  readonly content: Readonly<Record<string, unknown>>;
}

export interface ReasoningMessage extends MessageFields {
  readonly role: 'reasoning';
  readonly content: string;
  readonly encryptedValue?: string;
}

export type Message =
  | DeveloperMessage
  | SystemMessage
  | AssistantMessage
  | UserMessage
  | ToolMessage
  | ActivityMessage
  | ReasoningMessage;

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly parameters?: unknown;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface Context {
  readonly description: string;
  readonly value: string;
}

export interface ResumeEntry {
  readonly interruptId: string;
  readonly status: 'resolved' | 'cancelled';
  readonly payload?: unknown;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface RunAgentInput {
  /** Non-empty (the original's documented rule). */
  readonly threadId: string;
  /** Non-empty (the original's documented rule). */
  readonly runId: string;
  readonly protocolVersion?: string;
  readonly parentRunId?: string;
  /** Accepted and ignored (docs/behaviour/run-input.md#envelope); absent when the client sent null. */
  readonly state?: unknown;
  /** The whole conversation as sent; only the newest user message is used (docs/behaviour/run-input.md#user-message). */
  readonly messages: readonly Message[];
  /** Always empty: client tools are refused (docs/behaviour/run-input.md#tools). */
  readonly tools: readonly Tool[];
  readonly context: readonly Context[];
  readonly forwardedProps: { readonly iacCode: IacCodeProps };
  /** Present (even empty) only on a resume (docs/behaviour/run-input.md#resume-requests). */
  readonly resume?: readonly ResumeEntry[];
}
