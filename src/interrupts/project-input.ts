import { createHash } from 'node:crypto';
import { compactJson } from '../wire/compact-json';
import { PERSISTED_INPUT_FIELDS, type PersistedInput } from './pending-interrupt';
import { isPythonTruthy, pythonStr } from './python-coercion';

/**
 * The persisted projection of an A2A input (docs/behaviour/state.md#never-stored): only the allow-listed keys, deep-copied so
 * the caller's frame can never alias the stored state. Tool inputs and anything secret an upstream adds
 * are dropped here, before anything is written or announced.
 *
 * `inputId` is always a non-empty string in the result, because it is the pending entry's key and the
 * state loader checks `value.inputId === key` (docs/behaviour/state.md#the-document). The original used `str(inputId)` and, when absent,
 * a random `input-<uuid hex>` (docs/behaviour/interrupts.md#from-input-required-to-interrupts) that broke that check and changed on every GetTask; here a missing id
 * is derived from the input's content, so the same wait read twice gets the same id.
 */
export function projectInput(value: Record<string, unknown>): PersistedInput {
  const projection: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (PERSISTED_INPUT_FIELDS.has(key) && item !== undefined) projection[key] = structuredClone(item);
  }
  return { ...projection, inputId: inputIdOf(value) };
}

/** The interrupt id of an A2A input: its `inputId` as Python's `str()` would print it, else derived. */
export function inputIdOf(value: Record<string, unknown>): string {
  if (isPythonTruthy(value.inputId)) return pythonStr(value.inputId);
  const digest = createHash('sha256').update(compactJson(value), 'utf8').digest('hex');
  return `input-${digest.slice(0, 32)}`;
}
