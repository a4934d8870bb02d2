import { imageFilename } from './image-filename';

describe('imageFilename', () => {
  it.each([
    { name: 'a plain name is kept', requested: 'before.png', expected: 'before.png' },
    { name: 'unicode is kept', requested: 'ação 图.png', expected: 'ação 图.png' },
    {
      name: '255 UTF-8 bytes is kept',
      requested: 'a'.repeat(251) + '.png',
      expected: 'a'.repeat(251) + '.png',
    },
    { name: 'a path component', requested: '../before.png', expected: 'agui-image-1' },
    { name: 'a directory', requested: 'dir/before.png', expected: 'agui-image-1' },
    { name: 'a backslash', requested: 'dir\\before.png', expected: 'agui-image-1' },
    { name: 'a dot-dot', requested: '..', expected: 'agui-image-1' },
    { name: 'a reserved device name', requested: 'CON', expected: 'agui-image-1' },
    { name: 'a reserved name with extension, any case', requested: 'lpt1.png', expected: 'agui-image-1' },
    { name: 'a Windows-forbidden character', requested: 'a:b.png', expected: 'agui-image-1' },
    { name: 'a control character', requested: 'a\u0001.png', expected: 'agui-image-1' },
    { name: 'a trailing dot', requested: 'before.', expected: 'agui-image-1' },
    { name: 'surrounding spaces', requested: ' before.png', expected: 'agui-image-1' },
    { name: 'empty', requested: '', expected: 'agui-image-1' },
    { name: '256 UTF-8 bytes', requested: 'é'.repeat(128), expected: 'agui-image-1' },
    { name: 'missing', requested: undefined, expected: 'agui-image-1' },
    { name: 'not a string', requested: 42, expected: 'agui-image-1' },
  ])('$name', ({ requested, expected }) => {
    expect(imageFilename(requested, 1)).toBe(expected);
  });

  it('numbers the fallback by position', () => {
    expect(imageFilename(undefined, 3)).toBe('agui-image-3');
  });
});
