/**
 * How a user message picks and tunes a scripted turn: the first word is the script's keyword, the words
 * after it are per-task switches (`permission backup-not-ready`, `pipeline top-permission`). Kept apart
 * from the script table so scripts can read their own flags without importing that table.
 */

/** The first whitespace-separated word of the message, lower-cased. */
export function firstKeyword(userText: string): string {
  return userText.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
}

/** The words after the keyword, lower-cased: per-task switches such as `backup-not-ready`. */
export function scriptFlagsOf(userText: string): string[] {
  return userText.trim().toLowerCase().split(/\s+/).slice(1);
}
