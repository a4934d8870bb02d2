import { compactJson } from './compact-json';

describe('compactJson', () => {
  it.each([
    {
      name: 'sorts keys at every depth',
      value: { b: 1, a: { d: [{ z: 0, y: 1 }], c: 2 } },
      json: '{"a":{"c":2,"d":[{"y":1,"z":0}]},"b":1}',
    },
    {
      name: 'keeps non-ASCII and uses no spaces',
      value: { ñ: '日本 語', k: [1, 'x'] },
      json: '{"k":[1,"x"],"ñ":"日本 語"}',
    },
    { name: 'keeps null', value: { a: null }, json: '{"a":null}' },
    { name: 'serialises undefined as null', value: undefined, json: 'null' },
    { name: 'keeps a bare string quoted', value: 'x', json: '"x"' },
  ])('$name', ({ value, json }) => expect(compactJson(value)).toBe(json));
});
