import { compactJson } from '../wire/compact-json';
import { formatPythonFloat } from '../wire/python-float-repr';

/**
 * Python's truthiness, for the original's `a or b` chains over wire values (docs/behaviour/interrupts.md#from-input-required-to-interrupts, docs/behaviour/interrupts.md#forwarding-answers):
 * `None`, `False`, `0`, `""`, `[]` and `{}` are false.
 */
export function isPythonTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/**
 * Python's `str(value)` for JSON values, where the original stringifies option ids and labels
 * (docs/behaviour/interrupts.md#from-input-required-to-interrupts "Standard options"): `None`, `True`, `1`, `1.5`. A JSON `1.0` arrives here as the
 * JavaScript number 1 and prints `1` (Python: `1.0`); containers print as compact JSON, not Python repr —
 * both only for option ids no real input uses.
 */
export function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatPythonFloat(value);
  return compactJson(value);
}
