/**
 * Python's `repr(float)`, which `json.dumps` uses for floats (docs/behaviour/state.md#digests). Both languages print the
 * shortest digit string that reads back to the same double, so only the layout differs:
 * Python switches to exponent form when the decimal exponent is < -4 or >= 16 (`1e+16`, `1e-05`), pads
 * the exponent to two digits with a sign, and writes `.0` on integral values (`100000.0`).
 * Non-finite values print as `json.dumps` prints them with its default `allow_nan=True`.
 */
export function formatPythonFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  // toExponential() with no argument yields the shortest round-trip digits: "d.ddddde±x".
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fractionPart = digits.slice(exponent + 1);
  return `${sign}${integerPart}.${fractionPart || '0'}`;
}
