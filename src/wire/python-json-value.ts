/**
 * A JSON value as Python's `json.loads` sees it. Numbers keep their source text, because Python tells
 * `1` (int, arbitrary precision) from `1.0` (float) and JavaScript cannot (docs/behaviour/state.md#digests).
 * Objects are plain string-keyed records; plain JavaScript numbers are also accepted where a value is
 * built by code rather than parsed (an integral number then counts as an int, any other as a float).
 */
export type PythonJsonValue =
  null | boolean | string | number | PythonNumber | PythonJsonValue[] | { [key: string]: PythonJsonValue };

export class PythonNumber {
  /** `text` is the literal as written in the source (`-0`, `1E5`, `123456789012345678901`, `NaN`). */
  constructor(
    readonly text: string,
    readonly isFloat: boolean,
  ) {}
}

/** A JSON object as `parsePythonJson` gives it (not an array, not a number literal). */
export function isPythonObject(value: PythonJsonValue): value is { [key: string]: PythonJsonValue } {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof PythonNumber)
  );
}
