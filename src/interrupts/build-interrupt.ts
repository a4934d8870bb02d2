import type { Interrupt } from '@ag-ui/core';
import { ifDefined, nonEmptyString } from '../wire/wire-value';
import type { PendingInterruptEntry, PersistedInput } from './pending-interrupt';
import { isPythonTruthy, pythonStr } from './python-coercion';
import { isPermission, responseSchemaFor } from './response-schemas';
import { standardOptions, type StandardOption } from './standard-options';

/** The catalogue keys an interrupt message falls back to (docs/behaviour/http.md#languages, docs/behaviour/http.md#languages). */
export type InterruptFallbackKey = 'permissionRequired' | 'inputRequired';

/**
 * Renders a fallback message in the input's own `language`. Supplied by the caller so this file stays free of the i18n module.
 */
export type FallbackMessage = (key: InterruptFallbackKey, language: string | undefined) => string;

export interface BuildInterruptOptions {
  /** ISO-8601 UTC; omitted from the interrupt when undefined (TTL 0). */
  expiresAt?: string;
  fallbackMessage: FallbackMessage;
}

/**
 * The AG-UI `Interrupt` of one persisted input (docs/behaviour/interrupts.md#from-input-required-to-interrupts, the original's `interrupt_from_a2a`).
 * Built only from the persisted projection, so an interrupt rebuilt after a restart equals the one first
 * announced. No field is null: absent optional fields have no key (docs/architecture.md#decisions).
 */
export function buildInterrupt(input: PersistedInput, options: BuildInterruptOptions): Interrupt {
  const choices = standardOptions(input.options);
  const language = nonEmptyString(input.language);
  return {
    id: input.inputId,
    reason: isPermission(input) ? 'tool_call' : 'input_required',
    message: isPermission(input)
      ? (firstTruthyText([input.prompt, input.title]) ??
        options.fallbackMessage('permissionRequired', language))
      : withOptionLines(
          firstTruthyText([input.prompt]) ?? options.fallbackMessage('inputRequired', language),
          choices,
        ),
    ...ifDefined('toolCallId', nonEmptyString(input.toolUseId)),
    responseSchema: responseSchemaFor(input),
    ...ifDefined('expiresAt', options.expiresAt),
    // A `schemaVersion` inside the input overrides the leading 1, as in the original's dict spread.
    metadata: { schemaVersion: 1, ...structuredClone(input), standardOptions: choices },
  };
}

/** The interrupt of a pending entry, carrying the entry's own `expiresAt`. */
export function interruptOfEntry(entry: PendingInterruptEntry, fallbackMessage: FallbackMessage): Interrupt {
  return buildInterrupt(entry.value, { ...ifDefined('expiresAt', entry.expiresAt), fallbackMessage });
}

/**
 * Every pending interrupt, in insertion order: what `RUN_FINISHED {outcome: interrupt}` lists — all of
 * them, not only the ones this run discovered (docs/behaviour/interrupts.md#from-input-required-to-interrupts `_commit_interrupt`).
 */
export function interruptsOfPending(
  pending: Readonly<Record<string, PendingInterruptEntry>>,
  fallbackMessage: FallbackMessage,
): Interrupt[] {
  return Object.values(pending).map((entry) => interruptOfEntry(entry, fallbackMessage));
}

function firstTruthyText(values: unknown[]): string | undefined {
  const value = values.find(isPythonTruthy);
  return value === undefined ? undefined : pythonStr(value);
}

/** `prompt` followed by one `- <id>: <title>` line per option (docs/behaviour/interrupts.md#from-input-required-to-interrupts, `_selection_message`). */
function withOptionLines(prompt: string, choices: StandardOption[]): string {
  if (choices.length === 0) return prompt;
  return [prompt, ...choices.map((choice) => `- ${choice.id}: ${choice.title}`)].join('\n');
}
