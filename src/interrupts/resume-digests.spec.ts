import { answerDigestOf, answerDigests } from './resume-digests';
import { parsePythonJson } from '../wire/parse-python-json';
import type { PythonJsonValue } from '../wire/python-json-value';

// Computed with Python: sha256(json.dumps({"status": s, "payload": p}, sort_keys=True,
// separators=(",", ":"), ensure_ascii=False).encode()).hexdigest() — docs/behaviour/state.md#digests.
const ALLOW_ONCE = '289281c743b2a91d60f25b59680f04683bd82766f7a9b2eb405975140373868e';
const CANCELLED_NONE = '3902805a6bea7234d10c2f7eac2aadf4db6e27f87f95aeb0de62aa73bf902f22';
const FLOAT_ONE = 'a03deeed0cb634e26ab31a3c3a96be9a8b14d7893c53f38c8df49705c9d54ab5';
const INT_ONE = 'ce8d71ebf4e9cc45dfeeacf579b004548a176fd5d0b4b2353031f1e1dcfa5d7c';
const CHINESE = '2263b1c9aa7a9e9a706e82be8c79ec6f361f07332ccdb0be1d50ebcc9382da8c';

const body = (resume: string) => `{"threadId":"thread-1","runId":"run-2","messages":[],"resume":${resume}}`;

describe('answerDigests', () => {
  it.each([
    {
      name: 'a resolved permission',
      raw: body('[{"interruptId":"p-1","status":"resolved","payload":{"decision":"allow_once"}}]'),
      expected: [['p-1', ALLOW_ONCE]],
    },
    {
      name: 'an absent payload hashes like Python None',
      raw: body('[{"interruptId":"p-1","status":"cancelled"}]'),
      expected: [['p-1', CANCELLED_NONE]],
    },
    {
      name: 'an explicit null payload is the same answer',
      raw: body('[{"interruptId":"p-1","status":"cancelled","payload":null}]'),
      expected: [['p-1', CANCELLED_NONE]],
    },
    {
      name: 'a float 1.0 and an int 1 are different answers',
      raw: body(
        '[{"interruptId":"a","status":"resolved","payload":{"n":1.0}},{"interruptId":"b","status":"resolved","payload":{"n":1}}]',
      ),
      expected: [
        ['a', FLOAT_ONE],
        ['b', INT_ONE],
      ],
    },
    {
      name: 'non-ASCII text is hashed literally',
      raw: body('[{"interruptId":"q","status":"resolved","payload":{"freeText":"部署"}}]'),
      expected: [['q', CHINESE]],
    },
    {
      name: 'a repeated id with equal answers keeps the digest',
      raw: body(
        '[{"interruptId":"p-1","status":"cancelled"},{"interruptId":"p-1","status":"cancelled","payload":null}]',
      ),
      expected: [['p-1', CANCELLED_NONE]],
    },
    {
      name: 'a repeated id with different answers matches no recorded digest',
      raw: body(
        '[{"interruptId":"p-1","status":"cancelled"},{"interruptId":"p-1","status":"resolved","payload":{"decision":"allow_once"}}]',
      ),
      expected: [['p-1', '']],
    },
    { name: 'no resume', raw: '{"threadId":"t"}', expected: [] },
  ])('$name', ({ raw, expected }) => {
    // As the request reader hands it over: `resume` of the body as Python parsed it.
    const parsed = parsePythonJson(raw) as Record<string, PythonJsonValue>;
    expect([...answerDigests(parsed.resume)]).toEqual(expected);
  });

  it('hashes a value built in code like the parsed body', () => {
    expect(answerDigestOf('resolved', { decision: 'allow_once' })).toBe(ALLOW_ONCE);
    expect(answerDigestOf('cancelled', undefined)).toBe(CANCELLED_NONE);
  });
});
