import { parseCorsOrigins } from './parse-cors-origins';

describe('parseCorsOrigins', () => {
  it.each([
    { name: 'unset', value: undefined, origins: [] },
    { name: 'blank', value: '  ', origins: [] },
    { name: 'any origin', value: ' * ', origins: ['*'] },
    { name: 'one origin', value: 'https://app.example.com', origins: ['https://app.example.com'] },
    {
      name: 'a list, trimmed, duplicates dropped',
      value: 'https://a.example.com , http://localhost:5173,https://a.example.com',
      origins: ['https://a.example.com', 'http://localhost:5173'],
    },
    {
      name: 'serialised as browsers send it',
      value: 'HTTPS://App.Example.COM:443',
      origins: ['https://app.example.com'],
    },
    {
      name: 'a trailing slash tolerated',
      value: 'http://127.0.0.1:3000/',
      origins: ['http://127.0.0.1:3000'],
    },
    { name: 'an IPv6 host', value: 'http://[::1]:8080', origins: ['http://[::1]:8080'] },
  ])('accepts $name', ({ value, origins }) => {
    expect(parseCorsOrigins(value)).toEqual({ origins });
  });

  it.each([
    { name: 'a path', value: 'https://app.example.com/app' },
    { name: 'a query', value: 'https://app.example.com?x=1' },
    { name: 'an empty query', value: 'https://app.example.com/?' },
    { name: 'a fragment', value: 'https://app.example.com#top' },
    { name: 'user info', value: 'https://user@app.example.com' },
    { name: 'no scheme', value: 'app.example.com' },
    { name: 'another scheme', value: 'ftp://app.example.com' },
    { name: 'the opaque null origin', value: 'null' },
    { name: 'a wildcard subdomain', value: 'https://*.example.com' },
    { name: 'an empty entry', value: 'https://a.example.com,,https://b.example.com' },
    { name: '* next to an origin', value: '*,https://a.example.com' },
  ])('refuses $name', ({ value }) => {
    expect(parseCorsOrigins(value)).toEqual({ problem: expect.any(String) });
  });
});
