/**
 * Narrowing for A2A wire JSON. Frames arrive as untyped JSON, so every read goes through these two guards
 * instead of casts (docs/behaviour/events.md#unwrapping-frames: non-objects and empty strings count as absent).
 */
export type WireObject = Record<string, unknown>;

export function isWireObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a non-empty string, else undefined (the original's `_string`). */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * `{ [key]: value }` when the value is defined, `{}` otherwise. Spread it into an event so an absent
 * optional field has no key at all (docs/architecture.md#decisions: no null or undefined optional fields).
 */
export function ifDefined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

/**
 * The value when it is an integer, also written as an integral float (`8.0` through protobuf Struct);
 * booleans, fractions and non-numbers → undefined (the original's `_integer`).
 */
export function wireInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}
