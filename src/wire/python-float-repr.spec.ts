import { formatPythonFloat } from './python-float-repr';

// Expected strings are Python 3 `repr(float)` output.
const rows = [
  { name: 'integral', value: 1, expected: '1.0' },
  { name: 'negative integral', value: -42, expected: '-42.0' },
  { name: '1e5 is written out', value: 1e5, expected: '100000.0' },
  { name: 'last fixed-notation magnitude', value: 1e15, expected: '1000000000000000.0' },
  { name: 'exponent at 16 digits', value: 1e16, expected: '1e+16' },
  { name: 'exponent with fraction', value: 1.2345678901234568e16, expected: '1.2345678901234568e+16' },
  { name: 'small fixed', value: 0.0001, expected: '0.0001' },
  { name: 'small exponent padded', value: 0.00001, expected: '1e-05' },
  { name: 'negative small exponent', value: -1.5e-7, expected: '-1.5e-07' },
  { name: 'three-digit exponent', value: 1e300, expected: '1e+300' },
  { name: 'denormal', value: 5e-324, expected: '5e-324' },
  { name: 'shortest round trip', value: 0.1 + 0.2, expected: '0.30000000000000004' },
  { name: 'fraction', value: 123.456, expected: '123.456' },
  { name: 'zero', value: 0, expected: '0.0' },
  { name: 'negative zero', value: -0, expected: '-0.0' },
  { name: 'infinity', value: Infinity, expected: 'Infinity' },
  { name: 'negative infinity', value: -Infinity, expected: '-Infinity' },
  { name: 'nan', value: NaN, expected: 'NaN' },
];

describe('formatPythonFloat', () => {
  it.each(rows)('$name', ({ value, expected }) => expect(formatPythonFloat(value)).toBe(expected));
});
