import { ResponseValidator } from './response-validator';

const selection = (ids: string[]) => ({
  oneOf: ids.map((id) => ({
    type: 'object',
    properties: { selectedId: { type: 'string', const: id, title: id.toUpperCase() } },
    required: ['selectedId'],
    additionalProperties: false,
  })),
});

describe('ResponseValidator', () => {
  it.each([
    { name: 'matches one branch', payload: { selectedId: 'b' }, expected: true },
    { name: 'matches no branch', payload: { selectedId: 'c' }, expected: false },
    { name: 'an array is not an object', payload: [{ selectedId: 'a' }], expected: false },
    { name: 'null', payload: null, expected: false },
  ])('$name', ({ payload, expected }) => {
    expect(new ResponseValidator().validate(selection(['a', 'b']), payload)).toBe(expected);
  });

  it('compiles an equal schema once, whatever its key order or object identity', () => {
    const validator = new ResponseValidator();
    validator.validate(selection(['a']), { selectedId: 'a' });
    const reordered = {
      oneOf: [
        {
          additionalProperties: false,
          required: ['selectedId'],
          type: 'object',
          properties: { selectedId: { title: 'A', const: 'a', type: 'string' } },
        },
      ],
    };
    expect(validator.validate(reordered, { selectedId: 'a' })).toBe(true);
    validator.validate(selection(['b']), { selectedId: 'b' });
    expect(validator.compiledCount).toBe(2);
  });

  it('keeps at most 256 compiled schemas and still validates an evicted one', () => {
    const validator = new ResponseValidator();
    for (let n = 0; n < 300; n += 1) validator.validate(selection([`id-${n}`]), { selectedId: `id-${n}` });
    expect(validator.compiledCount).toBe(256);
    expect(validator.validate(selection(['id-0']), { selectedId: 'id-0' })).toBe(true);
    expect(validator.validate(selection(['id-0']), { selectedId: 'id-1' })).toBe(false);
  });
});
