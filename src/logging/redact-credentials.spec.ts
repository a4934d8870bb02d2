import { REDACTED } from './redacted-paths';
import { redactCredentials, urlPasswords } from './redact-credentials';

describe('redactCredentials', () => {
  it.each([
    {
      name: 'an ioredis socket-path error',
      text: 'connect ENOENT //:S3CRET@127.0.0.1:6379/0',
      expected: `connect ENOENT //${REDACTED}@127.0.0.1:6379/0`,
    },
    {
      name: 'a full URL with user and password',
      text: 'Error: cannot reach rediss://admin:S3CRET@redis.internal:6380',
      expected: `Error: cannot reach rediss://${REDACTED}@redis.internal:6380`,
    },
    {
      name: 'a text without credentials',
      text: 'connect ECONNREFUSED 127.0.0.1:6379',
      expected: 'connect ECONNREFUSED 127.0.0.1:6379',
    },
    {
      name: 'a known secret anywhere',
      text: 'auth failed for S3CRET',
      expected: `auth failed for ${REDACTED}`,
      secrets: ['S3CRET'],
    },
  ])('$name', ({ text, expected, secrets }) => {
    expect(redactCredentials(text, secrets)).toBe(expected);
  });

  it('takes the password of a URL, raw and percent-decoded', () => {
    expect(urlPasswords('redis://u:p%40ss@h:1')).toEqual(['p%40ss', 'p@ss']);
    expect(urlPasswords('redis://h:1')).toEqual([]);
  });
});
