import { createHash } from 'node:crypto';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { compareCodePoints } from './code-point-order';
import { parsePythonJson } from './parse-python-json';
import { formatPythonFloat } from './python-float-repr';
import { PythonNumber, type PythonJsonValue } from './python-json-value';

const LONE_SURROGATE = /\p{Surrogate}/u;
// json.dumps(ensure_ascii=False) escapes only these: the quote, the backslash and C0 controls.
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const NEEDS_ESCAPE = /["\\\x00-\x1f]/g;
const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/**
 * The request as the Python adapter canonicalised it before hashing (docs/behaviour/state.md#digests):
 * `json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"), ensure_ascii=False)`.
 * Lone surrogates are kept, as Python's `str` keeps them (the digest then refuses them).
 */
export function canonicalJson(rawBody: string): string {
  return canonicalJsonOfValue(parsePythonJson(rawBody));
}

/** Lower-case hex SHA-256 of the UTF-8 canonical JSON of a raw request body; the run digest of docs/behaviour/state.md#digests. */
export function canonicalDigest(rawBody: string): string {
  return digestCanonicalJson(canonicalJson(rawBody));
}

/**
 * The digest of a value built by code, e.g. an answer `{"status", "payload"}` (docs/behaviour/state.md#digests). Take `payload`
 * from `parsePythonJson` of the body when it may hold floats: a plain JavaScript `1` is hashed as the
 * int `1`, whatever the client wrote.
 */
export function canonicalDigestOfValue(value: PythonJsonValue): string {
  return digestCanonicalJson(canonicalJsonOfValue(value));
}

export function canonicalJsonOfValue(value: PythonJsonValue): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'string') return quotePythonString(value);
  if (typeof value === 'number') return formatPlainNumber(value);
  if (value instanceof PythonNumber) return formatPythonNumber(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJsonOfValue).join(',')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort(compareCodePoints);
    return `{${keys.map((key) => `${quotePythonString(key)}:${canonicalJsonOfValue(value[key])}`).join(',')}}`;
  }
  throw new TypeError(`Not a JSON value: ${typeof value}`);
}

function digestCanonicalJson(json: string): string {
  // Python's .encode("utf-8") raises on a lone surrogate, and the adapter answers 400 INVALID_INPUT
  // (docs/behaviour/http.md#request-checks item 9); Node would hash U+FFFD instead and match a different request.
  if (LONE_SURROGATE.test(json)) throw new AguiError(ErrorCode.INVALID_INPUT, 'invalidForwardedProps');
  return createHash('sha256').update(json, 'utf8').digest('hex');
}

function quotePythonString(value: string): string {
  return `"${value.replace(NEEDS_ESCAPE, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function formatPythonNumber(value: PythonNumber): string {
  if (value.isFloat) return formatPythonFloat(Number(value.text));
  // JSON forbids leading zeros, so an int literal is already canonical except for "-0" (Python: 0).
  return /^-0+$/.test(value.text) ? '0' : value.text;
}

function formatPlainNumber(value: number): string {
  if (Number.isInteger(value)) return BigInt(value).toString();
  return formatPythonFloat(value);
}
