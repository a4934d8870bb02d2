import { compareCodePoints } from './code-point-order';

describe('compareCodePoints', () => {
  it.each([
    { name: 'astral after U+FFFF (UTF-16 order says before)', a: '\u{1F600}', b: '\uFFFF', sign: 1 },
    { name: 'astral after U+E000', a: '\u{10000}', b: '\uE000', sign: 1 },
    { name: 'ASCII order', a: 'a', b: 'b', sign: -1 },
    { name: 'prefix first', a: 'ab', b: 'abc', sign: -1 },
    { name: 'equal', a: 'x\u{1F600}', b: 'x\u{1F600}', sign: 0 },
    { name: 'lone surrogate before U+E000', a: '\uD800', b: '\uE000', sign: -1 },
    { name: 'two astral characters', a: '\u{1F600}', b: '\u{1F64F}', sign: -1 },
  ])('$name', ({ a, b, sign }) => expect(Math.sign(compareCodePoints(a, b))).toBe(sign));

  it('sorts keys as Python sorted() does', () => {
    expect(['\u{1F600}', '\uFFFF', 'a', '\u{10000}', '\uE000'].sort(compareCodePoints)).toEqual([
      'a',
      '\uE000',
      '\uFFFF',
      '\u{10000}',
      '\u{1F600}',
    ]);
  });
});
