/** What `IAC_CODE_AGUI_CORS_ORIGINS` allows, or what is wrong with it. */
export type CorsOriginsResult = { readonly origins: readonly string[] } | { readonly problem: string };

/** Any origin: only on its own, so a typo next to it cannot widen a list by accident. */
export const ANY_ORIGIN = '*';

/**
 * Reads the comma-separated list of origins allowed to call the gateway from a browser. Unset or blank
 * means no CORS at all, as the original. Each entry is `*` alone or an origin exactly as a browser sends
 * it in the `Origin` header: `http(s)://host[:port]`, no path, query, fragment or credentials. The
 * comparison at request time is exact, so each origin is kept in its serialised form (lower-case host,
 * default port dropped). Credentials (cookies) are never allowed: the gateway authenticates with a bearer
 * header, which `*` covers too. Pure.
 */
export function parseCorsOrigins(value: string | undefined): CorsOriginsResult {
  if (value === undefined || value.trim() === '') return { origins: [] };
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.includes(ANY_ORIGIN)) {
    return entries.length === 1
      ? { origins: [ANY_ORIGIN] }
      : { problem: `"${ANY_ORIGIN}" allows every origin and cannot be combined with others` };
  }
  const origins: string[] = [];
  for (const [index, entry] of entries.entries()) {
    const origin = serialisedOrigin(entry);
    if (origin === undefined) {
      // By position, not by value: an entry with credentials in it must not reach the boot log.
      return { problem: `entry ${index + 1} is not an origin of the form http(s)://host[:port]` };
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return { origins };
}

/** The entry as a browser would send it in `Origin`, or undefined when it is not just an origin. */
function serialisedOrigin(entry: string): string | undefined {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // A path, query, fragment or user info would make the entry something no Origin header ever is; a lone
  // trailing slash is tolerated, since that is how origins are often copied from an address bar.
  // `*` in a host is no pattern here (a browser never sends one), so it is refused rather than never matching.
  if (url.pathname !== '/' || /[?#@*]/.test(entry)) return undefined;
  return url.origin;
}
