/** What a thread keeps of an interrupt it is waiting on (docs/behaviour/state.md#the-document). */

/**
 * The only keys of an A2A input kept in a pending entry (docs/behaviour/state.md#never-stored `_PERSISTED_INPUT_FIELDS`):
 * an allow-list, so tool inputs and anything secret an upstream might add are never written to disk.
 */
export const PERSISTED_INPUT_FIELDS: ReadonlySet<string> = new Set([
  'schemaVersion',
  'kind',
  'requestTaskId',
  'contextId',
  'inputId',
  'toolUseId',
  'toolName',
  'title',
  'purpose',
  'effect',
  'target',
  'isReadOnly',
  'prompt',
  'safeSummary',
  'options',
  'language',
  'deploymentSummary',
  'scope',
  'subPipelineId',
  'operation',
  'displayParameters',
  'allowFreeText',
  'freeTextPrompt',
  'required',
  'selector',
]);

/** The persisted projection of one A2A input (docs/behaviour/state.md#never-stored); `inputId` equals the entry's key. */
export type PersistedInput = { inputId: string } & Record<string, unknown>;

export interface PendingInterruptEntry {
  value: PersistedInput;
  sideband: boolean;
  /** ISO-8601 UTC (`…Z`); the interrupt TTL (docs/architecture.md#decisions: Gen A expiry). */
  expiresAt?: string;
}

export interface AppliedResumeDigest {
  executionId: string;
  interruptId: string;
  digest: string;
}
