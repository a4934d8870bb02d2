import { standardOptions, type StandardOption } from './standard-options';

const optionCases: { name: string; options: unknown; expected: StandardOption[] }[] = [
  { name: 'no list means no options', options: { id: 'a' }, expected: [] },
  { name: 'an empty list', options: [], expected: [] },
  {
    name: 'id and label',
    options: [
      { id: 'allow_once', label: 'Allow once' },
      { id: 'deny', label: 'Deny' },
    ],
    expected: [
      { id: 'allow_once', title: 'Allow once' },
      { id: 'deny', title: 'Deny' },
    ],
  },
  {
    name: 'title falls back label → name → title → id',
    options: [
      { id: 'a', label: '', name: 'Name A', title: 'Title A' },
      { id: 'b', title: 'Title B' },
      { id: 'c' },
    ],
    expected: [
      { id: 'a', title: 'Name A' },
      { id: 'b', title: 'Title B' },
      { id: 'c', title: 'c' },
    ],
  },
  {
    name: 'id falls back to candidate_index, then to the position',
    options: [{ candidate_index: 3, label: 'Third' }, { label: 'Second' }],
    expected: [
      { id: '3', title: 'Third' },
      { id: '1', title: 'Second' },
    ],
  },
  {
    name: 'an explicit null id prints as None, like dict.get with a present key',
    options: [{ id: null, candidate_index: 4 }],
    expected: [{ id: 'None', title: 'None' }],
  },
  {
    name: 'non-object options are stringified for id and title',
    options: ['small', 2, true, 1.5],
    expected: [
      { id: 'small', title: 'small' },
      { id: '2', title: '2' },
      { id: 'True', title: 'True' },
      { id: '1.5', title: '1.5' },
    ],
  },
  {
    name: 'an empty id becomes option-<n>',
    options: [{ id: '', label: 'Blank' }, ''],
    expected: [
      { id: 'option-1', title: 'Blank' },
      { id: 'option-2', title: '' },
    ],
  },
  {
    name: 'repeated ids get -2, -3 suffixes, skipping ids already taken',
    options: [{ id: 'x' }, { id: 'x' }, { id: 'x-2' }, { id: 'x' }],
    expected: [
      { id: 'x', title: 'x' },
      { id: 'x-2', title: 'x' },
      { id: 'x-2-2', title: 'x-2' },
      { id: 'x-3', title: 'x' },
    ],
  },
];

describe('standardOptions', () => {
  it.each(optionCases)('$name', ({ options, expected }) => {
    expect(standardOptions(options)).toEqual(expected);
  });
});
