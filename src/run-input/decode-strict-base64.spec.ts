import { decodedLengthOfStrictBase64, decodeStrictBase64 } from './decode-strict-base64';

describe('decodeStrictBase64', () => {
  it.each([
    { name: 'no padding', text: 'QUJD', bytes: 'ABC' },
    { name: 'one pad', text: 'QUI=', bytes: 'AB' },
    { name: 'two pads', text: 'QQ==', bytes: 'A' },
    { name: 'empty', text: '', bytes: '' },
    { name: '+ and /', text: '++//', bytes: '\xfb\xef\xff' },
  ])('accepts $name', ({ text, bytes }) => {
    expect(decodeStrictBase64(text)).toEqual(Buffer.from(bytes, 'latin1'));
    expect(decodedLengthOfStrictBase64(text)).toBe(bytes.length);
  });

  it.each([
    { name: 'missing padding', text: 'QQ' },
    { name: 'three pads', text: 'Q===' },
    { name: 'padding in the middle', text: 'QQ==QUJD' },
    { name: 'a newline', text: 'QUJD\nQUJD' },
    { name: 'a space', text: 'QU D' },
    { name: 'URL-safe alphabet', text: '--__' },
    { name: 'non-ASCII', text: 'QUJé' },
    { name: 'a data: URL prefix', text: 'data:image/png;base64,QUJD' },
  ])('refuses $name', ({ text }) => {
    expect(decodeStrictBase64(text)).toBeUndefined();
    expect(decodedLengthOfStrictBase64(text)).toBeUndefined();
  });
});
