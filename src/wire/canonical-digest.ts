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
  return canonicalDigestOfValue(parsePythonJson(rawBody));
}

/**
 * The digest of a value: a body parsed by `parsePythonJson`, or one built by code, e.g. an answer
 * `{"status", "payload"}` (docs/behaviour/state.md#digests). Take `payload` from `parsePythonJson` of the body
 * when it may hold floats: a plain JavaScript `1` is hashed as the int `1`, whatever the client wrote.
 * The canonical text goes to the hash in pieces, never as one string: a body's large string is not copied
 * into a second body-sized string just to be hashed.
 */
export function canonicalDigestOfValue(value: PythonJsonValue): string {
  const hash = new HashWriter();
  writeCanonicalJson(value, hash);
  return hash.digest();
}

export function canonicalJsonOfValue(value: PythonJsonValue): string {
  const pieces: string[] = [];
  writeCanonicalJson(value, { write: (piece) => pieces.push(piece) });
  return pieces.join('');
}

interface PieceSink {
  write(piece: string): void;
}

function writeCanonicalJson(value: PythonJsonValue, sink: PieceSink): void {
  if (value === null) return sink.write('null');
  if (value === true) return sink.write('true');
  if (value === false) return sink.write('false');
  if (typeof value === 'string') return sink.write(quotePythonString(value));
  if (typeof value === 'number') return sink.write(formatPlainNumber(value));
  if (value instanceof PythonNumber) return sink.write(formatPythonNumber(value));
  if (Array.isArray(value)) {
    sink.write('[');
    value.forEach((item, index) => {
      if (index > 0) sink.write(',');
      writeCanonicalJson(item, sink);
    });
    return sink.write(']');
  }
  if (typeof value === 'object') {
    sink.write('{');
    Object.keys(value)
      .sort(compareCodePoints)
      .forEach((key, index) => {
        sink.write(index > 0 ? `,${quotePythonString(key)}:` : `${quotePythonString(key)}:`);
        writeCanonicalJson(value[key], sink);
      });
    return sink.write('}');
  }
  throw new TypeError(`Not a JSON value: ${typeof value}`);
}

/**
 * SHA-256 over the pieces' UTF-8, fed in batches: small pieces are joined up to BATCH_CHARS before an update
 * (one native call per batch, not per token), a large one goes in on its own. A piece is a whole token, so a
 * surrogate pair is never split between two updates.
 */
class HashWriter implements PieceSink {
  private static readonly BATCH_CHARS = 16 * 1024;
  private readonly hash = createHash('sha256');
  private batch = '';

  write(piece: string): void {
    if (piece.length >= HashWriter.BATCH_CHARS) {
      this.flush();
      this.update(piece);
    } else {
      this.batch += piece;
      if (this.batch.length >= HashWriter.BATCH_CHARS) this.flush();
    }
  }

  digest(): string {
    this.flush();
    return this.hash.digest('hex');
  }

  private flush(): void {
    if (this.batch.length > 0) this.update(this.batch);
    this.batch = '';
  }

  /** Every piece starts and ends with ASCII, so joining pieces never makes a lone surrogate a pair or the reverse. */
  private update(text: string): void {
    // Python's .encode("utf-8") raises on a lone surrogate, and the adapter answers 400 INVALID_INPUT
    // (docs/behaviour/http.md#request-checks item 9); Node would hash U+FFFD instead and match a different request.
    if (LONE_SURROGATE.test(text)) throw new AguiError(ErrorCode.INVALID_INPUT, 'invalidForwardedProps');
    this.hash.update(text, 'utf8');
  }
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
