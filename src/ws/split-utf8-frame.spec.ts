import { splitUtf8Frame } from './split-utf8-frame';

describe('splitUtf8Frame', () => {
  it.each([
    { name: 'short text stays one piece', text: 'data: {}\n\n', max: 32, sizes: [10] },
    { name: 'exactly the limit stays one piece', text: 'x'.repeat(32), max: 32, sizes: [32] },
    { name: 'ASCII is cut at the limit', text: 'x'.repeat(70), max: 32, sizes: [32, 32, 6] },
    // '€' is 3 bytes: 10 of them are 30 bytes; a cut at 32 would split the 11th.
    { name: 'a multi-byte character is never cut', text: '€'.repeat(12), max: 32, sizes: [30, 6] },
    { name: '4-byte characters', text: '😀'.repeat(9), max: 10, sizes: [8, 8, 8, 8, 4] },
  ])('$name', ({ text, max, sizes }) => {
    const pieces = splitUtf8Frame(text, max);
    expect(pieces.map((piece) => piece.length)).toEqual(sizes);
    expect(pieces.every((piece) => piece.toString('utf8').includes('\uFFFD') === false)).toBe(true);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(text);
  });

  it('keeps a 100 KB event under 32 KB a piece by default', () => {
    const text = `data: ${JSON.stringify({ delta: 'é'.repeat(50_000) })}\n\n`;
    const pieces = splitUtf8Frame(text);
    expect(pieces.length).toBe(4);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(31 * 1024);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(text);
  });
});
