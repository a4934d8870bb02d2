import { conformsTo } from './conforms-to';
import { ContextDto, ResumeEntryDto } from './run-agent-input.dto';

describe('conformsTo', () => {
  it.each([
    {
      name: 'an exact context entry',
      dto: ContextDto,
      value: { description: 'd', value: 'v' },
      expected: true,
    },
    {
      name: 'an unknown key',
      dto: ContextDto,
      value: { description: 'd', value: 'v', x: 1 },
      expected: false,
    },
    {
      name: 'a key class-transformer skips (__proto__)',
      dto: ContextDto,
      value: JSON.parse('{"description":"d","value":"v","__proto__":1}'),
      expected: false,
    },
    {
      name: 'a key naming an inherited method',
      dto: ContextDto,
      value: { description: 'd', value: 'v', hasOwnProperty: 1 },
      expected: false,
    },
    { name: 'a coerced type', dto: ContextDto, value: { description: 'd', value: 1 }, expected: false },
    { name: 'an array', dto: ContextDto, value: [{ description: 'd', value: 'v' }], expected: false },
    { name: 'null', dto: ContextDto, value: null, expected: false },
    {
      name: 'a free-form payload with a constructor key',
      dto: ResumeEntryDto,
      value: JSON.parse(
        '{"interruptId":"i","status":"resolved","payload":{"constructor":"x","__proto__":[]}}',
      ),
      expected: true,
    },
  ])('$name → $expected', ({ dto, value, expected }) => {
    expect(conformsTo(dto, value)).toBe(expected);
  });

  it('leaves the value it checks untouched', () => {
    const value = { interruptId: 'i', status: 'resolved', payload: { a: [1, { b: 2 }] } };
    const copy = structuredClone(value);
    expect(conformsTo(ResumeEntryDto, value)).toBe(true);
    expect(value).toEqual(copy);
  });
});
