/**
 * Python's `base64.b64decode(value, validate=True)` on an ASCII string (docs/behaviour/run-input.md#user-message): only the base64
 * alphabet, padded to a multiple of four, at most two `=` at the end. No whitespace, no URL-safe alphabet.
 * Returns undefined when the text is not strict base64.
 */
export function decodeStrictBase64(value: string): Buffer | undefined {
  return decodedLengthOfStrictBase64(value) === undefined ? undefined : Buffer.from(value, 'base64');
}

/** The decoded byte count of strict base64 text, computed without decoding; undefined when not strict. */
export function decodedLengthOfStrictBase64(value: string): number | undefined {
  if (value.length % 4 !== 0) return undefined;
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  // A plain loop, not a regular expression: the text can be 11 MB long.
  for (let index = 0; index < value.length - padding; index++) {
    if (!isBase64Letter(value.charCodeAt(index))) return undefined;
  }
  return (value.length / 4) * 3 - padding;
}

function isBase64Letter(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2b || // +
    code === 0x2f // /
  );
}
