/**
 * Orders strings by Unicode code point, as Python compares `str`. JavaScript's default sort compares
 * UTF-16 code units, which puts astral-plane characters (surrogate pairs, 0xD800–0xDFFF) before
 * U+E000–U+FFFF; Python puts them after. Digests and state files must sort like Python (docs/behaviour/state.md#digests).
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left === right) continue;
    // Only a difference where at least one side is a surrogate can disagree with code-unit order.
    if (isSurrogate(left) || isSurrogate(right)) {
      return (a.codePointAt(index) ?? left) - (b.codePointAt(index) ?? right);
    }
    return left - right;
  }
  return a.length - b.length;
}

function isSurrogate(codeUnit: number): boolean {
  return codeUnit >= 0xd800 && codeUnit <= 0xdfff;
}
