import { httpUrl } from './http-url';

describe('httpUrl', () => {
  it.each([
    { host: '0.0.0.0', port: 8080, url: 'http://0.0.0.0:8080/' },
    { host: '127.0.0.1', port: 8765, url: 'http://127.0.0.1:8765/' },
    { host: 'localhost', port: 80, url: 'http://localhost:80/' },
    { host: '::', port: 8080, url: 'http://[::]:8080/' },
    { host: '::1', port: 8080, url: 'http://[::1]:8080/' },
    { host: 'fd00::12', port: 9000, url: 'http://[fd00::12]:9000/' },
  ])('$host:$port → $url (a URL that parses back to the same host and port)', ({ host, port, url }) => {
    expect(httpUrl(host, port)).toBe(url);
    const parsed = new URL(httpUrl(host, port));
    expect(parsed.hostname.replace(/^\[|\]$/g, '')).toBe(host);
    expect(Number(parsed.port || 80)).toBe(port);
  });
});
