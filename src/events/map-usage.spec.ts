import { aggregateUsage, parseUsageRecord } from './map-usage';

describe('parseUsageRecord', () => {
  it.each([
    {
      name: 'integral floats from protobuf Struct become integers',
      raw: {
        provider: 'p',
        model: 'm',
        inputTokens: 6497.0,
        outputTokens: 26.0,
        totalTokens: 6523,
        cachedInputTokens: 0,
      },
      record: {
        provider: 'p',
        model: 'm',
        inputTokens: 6497,
        outputTokens: 26,
        totalTokens: 6523,
        cachedInputTokens: 0,
      },
    },
    {
      name: 'booleans are rejected',
      raw: { inputTokens: true, outputTokens: false, totalTokens: 1 },
      record: { totalTokens: 1 },
    },
    {
      name: 'fractions, negatives, strings and NaN are rejected',
      raw: { inputTokens: 1.5, outputTokens: -1, totalTokens: '3', cachedInputTokens: NaN },
      record: {},
    },
    {
      name: 'empty provider and model are absent',
      raw: { provider: '', model: 7, inputTokens: 2 },
      record: { inputTokens: 2 },
    },
    { name: 'unknown fields are dropped', raw: { costUsd: 1, reasoningTokens: 3 }, record: {} },
    { name: 'a non-object is no record', raw: [1], record: undefined },
    { name: 'null is no record', raw: null, record: undefined },
  ])('$name', ({ raw, record }) => expect(parseUsageRecord(raw)).toEqual(record));
});

describe('aggregateUsage', () => {
  it('returns undefined without records', () => expect(aggregateUsage([])).toBeUndefined());

  it('groups by provider and model in first-seen order and sums, missing counters as 0', () => {
    expect(
      aggregateUsage([
        { provider: 'dashscope', model: 'qwen', inputTokens: 10, totalTokens: 12 },
        { provider: 'dashscope', model: 'other', outputTokens: 5 },
        { provider: 'dashscope', model: 'qwen', inputTokens: 1, outputTokens: 2, cachedInputTokens: 3 },
        { inputTokens: 4 },
        { model: 'qwen', inputTokens: 5 },
        { inputTokens: 6 },
      ]),
    ).toEqual([
      {
        provider: 'dashscope',
        model: 'qwen',
        inputTokens: 11,
        outputTokens: 2,
        totalTokens: 12,
        cachedInputTokens: 3,
      },
      {
        provider: 'dashscope',
        model: 'other',
        inputTokens: 0,
        outputTokens: 5,
        totalTokens: 0,
        cachedInputTokens: 0,
      },
      { inputTokens: 10, outputTokens: 0, totalTokens: 0, cachedInputTokens: 0 },
      { model: 'qwen', inputTokens: 5, outputTokens: 0, totalTokens: 0, cachedInputTokens: 0 },
    ]);
  });
});
