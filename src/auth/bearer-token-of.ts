/**
 * The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, docs/behaviour/http.md#authentication), or
 * undefined when the header is missing, of another scheme, or has an empty token.
 */
export function bearerTokenOf(header: string | undefined): string | undefined {
  const value = header ?? '';
  const space = value.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = value.slice(0, space);
  const token = value.slice(space + 1).trim();
  return scheme.toLowerCase() === 'bearer' && token !== '' ? token : undefined;
}
