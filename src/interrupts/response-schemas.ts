import type { PersistedInput } from './pending-interrupt';
import { isPythonTruthy } from './python-coercion';
import { standardOptions } from './standard-options';

/** The `kind` of a permission input; every other kind is answered as a question (docs/behaviour/interrupts.md#response-schemas). */
export const PERMISSION_KIND = 'permission';

/** Whether the input is a tool permission (`reason: tool_call`, DataPart answer) rather than a question. */
export function isPermission(input: PersistedInput): boolean {
  return input.kind === PERMISSION_KIND;
}

/**
 * The JSON Schema a resume payload must satisfy (docs/behaviour/interrupts.md#response-schemas). Permissions take exactly
 * `{decision: "allow_once" | "deny"}`. Every other kind — `cloud_resource_selection` and
 * `deployment_confirmation` included (docs/architecture.md#decisions: generic option questions) — takes one
 * closed `{selectedId}` branch per standard option, plus `{freeText}` when the input allows free text or
 * has no options at all. Built fresh on every call: callers may keep or mutate the result.
 */
export function responseSchemaFor(input: PersistedInput): Record<string, unknown> {
  if (isPermission(input)) {
    return {
      type: 'object',
      properties: { decision: { type: 'string', enum: ['allow_once', 'deny'] } },
      required: ['decision'],
      additionalProperties: false,
    };
  }
  const options = standardOptions(input.options);
  const branches: Record<string, unknown>[] = options.map((option) => ({
    type: 'object',
    properties: { selectedId: { type: 'string', const: option.id, title: option.title } },
    required: ['selectedId'],
    additionalProperties: false,
  }));
  if (isPythonTruthy(input.allowFreeText) || options.length === 0) {
    branches.push({
      type: 'object',
      properties: { freeText: { type: 'string', minLength: 1 } },
      required: ['freeText'],
      additionalProperties: false,
    });
  }
  return { oneOf: branches };
}
