import { userTextOf } from './user-text-of';

describe('userTextOf', () => {
  it.each([
    { name: 'one text part', message: { parts: [{ text: 'drop' }] }, expected: 'drop' },
    {
      name: 'text parts joined',
      message: { parts: [{ text: 'slow ' }, { text: 'please' }] },
      expected: 'slow please',
    },
    {
      name: 'data and file parts ignored',
      message: {
        parts: [{ data: { kind: 'permission' } }, { raw: 'AAAA', mediaType: 'image/png' }, { text: 'hi' }],
      },
      expected: 'hi',
    },
    { name: 'no parts', message: { messageId: 'm' }, expected: '' },
    { name: 'not a message', message: undefined, expected: '' },
  ])('$name', ({ message, expected }) => {
    expect(userTextOf(message)).toBe(expected);
  });
});
