import { REDACTED } from './redacted-paths';

/** The user-info part of a URL (`//user:password@`), also when the scheme has been cut off. */
const URL_USER_INFO = /\/\/[^\s/@]*@/g;

/**
 * An error text with every URL's user info and every given secret replaced, for a log line. Drivers
 * (ioredis among them) put the connection string into their messages, password included.
 */
export function redactCredentials(text: string, secrets: readonly string[] = []): string {
  let redacted = text.replace(URL_USER_INFO, `//${REDACTED}@`);
  for (const secret of secrets) if (secret) redacted = redacted.split(secret).join(REDACTED);
  return redacted;
}

/** The password (raw and decoded) of a connection URL: what redactCredentials must also hide. */
export function urlPasswords(url: string): string[] {
  try {
    const { password } = new URL(url);
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}
