import { contextIdForThread } from './thread-context-id';

describe('contextIdForThread', () => {
  // Expected values from Python's hashlib, as the original computes them (docs/behaviour/a2a.md#the-message).
  it.each([
    { threadId: 'thread-1', expected: 'agui-4b0a5fefc328e6b9257bc535e3c5d26fec36b52f' },
    { threadId: '', expected: 'agui-e3b0c44298fc1c149afbf4c8996fb92427ae41e4' },
    { threadId: '线程-ü', expected: 'agui-35494d6e034232953fe2e1b35d14bc2f79fae639' },
  ])('$threadId → $expected', ({ threadId, expected }) => {
    expect(contextIdForThread(threadId)).toBe(expected);
  });
});
