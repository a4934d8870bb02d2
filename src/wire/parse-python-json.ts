import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { PythonNumber, type PythonJsonValue } from './python-json-value';

/**
 * Python 3.11's `int(str)` refuses more than 4300 digits (`sys.int_max_str_digits`), so `json.loads`
 * fails on such a body: there is no Python digest to be compatible with.
 */
const PYTHON_MAX_INT_DIGITS = 4300;
/** Python's C scanner raises RecursionError near its recursion limit (1000); we stop at the same depth. */
const MAX_DEPTH = 1000;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Parses `text` the way Python's `json.loads` (strict mode) does, for digests that must match the
 * Python adapter's byte for byte (docs/behaviour/state.md#digests). Differences from `JSON.parse` that matter here:
 * numbers keep their literal text (`1.0` stays a float, big integers stay exact), duplicate keys keep
 * the last value (lossless-json refuses them, Python accepts them), and `NaN`/`Infinity`/`-Infinity`
 * are accepted. A leading UTF-8 BOM is skipped, as Python's `json.loads(bytes)` does.
 * Throws `AguiError(INVALID_JSON)` where Python raises.
 */
export function parsePythonJson(text: string): PythonJsonValue {
  const parser = new PythonJsonParser(text.startsWith('\uFEFF') ? text.slice(1) : text);
  return parser.parseDocument();
}

class PythonJsonParser {
  private index = 0;

  constructor(private readonly text: string) {}

  parseDocument(): PythonJsonValue {
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.index !== this.text.length) this.fail();
    return value;
  }

  private parseValue(depth: number): PythonJsonValue {
    this.skipWhitespace();
    const char = this.text[this.index];
    if (char === '{') return this.parseObject(depth + 1);
    if (char === '[') return this.parseArray(depth + 1);
    if (char === '"') return this.parseString();
    for (const [literal, value] of LITERALS) {
      if (this.text.startsWith(literal, this.index)) {
        this.index += literal.length;
        return value;
      }
    }
    return this.parseNumber();
  }

  private parseObject(depth: number): PythonJsonValue {
    if (depth > MAX_DEPTH) this.fail();
    this.index++; // {
    // No prototype: a "__proto__" key must become an ordinary member, as in a Python dict.
    const result: { [key: string]: PythonJsonValue } = Object.create(null);
    this.skipWhitespace();
    if (this.text[this.index] === '}') {
      this.index++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.index] !== '"') this.fail();
      const key = this.parseString();
      this.skipWhitespace();
      if (this.text[this.index] !== ':') this.fail();
      this.index++;
      result[key] = this.parseValue(depth); // last duplicate wins, like dict(pairs)
      this.skipWhitespace();
      const separator = this.text[this.index++];
      if (separator === '}') return result;
      if (separator !== ',') this.fail();
    }
  }

  private parseArray(depth: number): PythonJsonValue {
    if (depth > MAX_DEPTH) this.fail();
    this.index++; // [
    const result: PythonJsonValue[] = [];
    this.skipWhitespace();
    if (this.text[this.index] === ']') {
      this.index++;
      return result;
    }
    for (;;) {
      result.push(this.parseValue(depth));
      this.skipWhitespace();
      const separator = this.text[this.index++];
      if (separator === ']') return result;
      if (separator !== ',') this.fail();
    }
  }

  private parseString(): string {
    this.index++; // opening quote
    let result = '';
    let runStart = this.index;
    for (;;) {
      if (this.index >= this.text.length) this.fail();
      const code = this.text.charCodeAt(this.index);
      if (code === 0x22) {
        result += this.text.slice(runStart, this.index);
        this.index++;
        return result;
      }
      if (code < 0x20) this.fail(); // strict mode: raw control characters are refused
      if (code !== 0x5c) {
        this.index++;
        continue;
      }
      result += this.text.slice(runStart, this.index);
      result += this.parseEscape();
      runStart = this.index;
    }
  }

  /** One escape after a backslash; a \u high surrogate joins a following \u low surrogate, as in Python. */
  private parseEscape(): string {
    const kind = this.text[this.index + 1];
    if (kind !== 'u') {
      const short = kind === undefined ? undefined : SHORT_ESCAPES[kind];
      if (short === undefined) this.fail();
      this.index += 2;
      return short;
    }
    const unit = this.readHex4(this.index + 2);
    this.index += 6;
    if (unit >= 0xd800 && unit <= 0xdbff && this.text.startsWith('\\u', this.index)) {
      const low = this.readHex4(this.index + 2);
      if (low >= 0xdc00 && low <= 0xdfff) {
        this.index += 6;
        return String.fromCharCode(unit, low);
      }
    }
    return String.fromCharCode(unit);
  }

  private readHex4(at: number): number {
    const hex = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail();
    return parseInt(hex, 16);
  }

  private parseNumber(): PythonJsonValue {
    NUMBER.lastIndex = this.index;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail();
    this.index += match[0].length;
    const isFloat = match[1] !== undefined || match[2] !== undefined;
    if (!isFloat && match[0].replace('-', '').length > PYTHON_MAX_INT_DIGITS) this.fail();
    return new PythonNumber(match[0], isFloat);
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.index;
    WHITESPACE.exec(this.text);
    this.index = WHITESPACE.lastIndex;
  }

  private fail(): never {
    throw new AguiError(ErrorCode.INVALID_JSON, 'invalidJson');
  }
}

/** Python's scanner checks these before numbers; `-Infinity` must win over the number `-`. */
const LITERALS: ReadonlyArray<readonly [string, PythonJsonValue]> = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['NaN', new PythonNumber('NaN', true)],
  ['Infinity', new PythonNumber('Infinity', true)],
  ['-Infinity', new PythonNumber('-Infinity', true)],
];
