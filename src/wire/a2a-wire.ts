/**
 * One item of an A2A stream as wire JSON: the JSON-RPC `result`, i.e. a StreamResponse object with one of
 * `task`, `statusUpdate`, `artifactUpdate` or `message` (docs/behaviour/events.md#unwrapping-frames). GetTask answers are wrapped as
 * `{ task }` so the mapper sees one shape.
 */
export type A2aFrame = Record<string, unknown>;

/** An A2A 1.0 part as wire JSON: `{text}`, `{data, mediaType}`, `{raw, mediaType, filename}`. */
export type A2aPart = Record<string, unknown>;

/** The exact A2A message of docs/behaviour/a2a.md#the-message, as wire JSON (null values already omitted). */
export interface A2aOutgoingMessage {
  readonly messageId: string;
  readonly role: 'ROLE_USER';
  readonly parts: readonly A2aPart[];
  readonly contextId: string;
  readonly taskId?: string;
  readonly metadata: { readonly iac_code: Readonly<Record<string, unknown>> };
}
