/** `http://host:port/`, an IPv6 literal in brackets (RFC 3986, section 3.2.2): `http://[::]:8080/`. */
export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
}
