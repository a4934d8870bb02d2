/** The longest file name most file systems accept, in UTF-8 bytes. */
const MAX_FILENAME_BYTES = 255;
/** Characters Windows forbids in a file name, plus the ASCII control characters. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTERS = /[<>:"/\\|?*\u0000-\u001f]/;
/** Device names Windows reserves, with or without an extension (`CON`, `con.png`, `LPT1.txt`). */
const RESERVED_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * The artifact file name of an inline image (docs/behaviour/run-input.md#user-message): the client's name when it is already a safe
 * single file name, otherwise `agui-image-<position>` (position = parts collected so far + 1).
 */
export function imageFilename(requested: unknown, position: number): string {
  return typeof requested === 'string' && isSafeFilename(requested) ? requested : `agui-image-${position}`;
}

/** No path components, no `..`, nothing Windows forbids or reserves, at most 255 UTF-8 bytes. */
export function isSafeFilename(name: string): boolean {
  if (name === '' || name.trim() !== name || name.endsWith('.')) return false;
  if (Buffer.byteLength(name, 'utf8') > MAX_FILENAME_BYTES) return false;
  if (name.includes('..') || FORBIDDEN_CHARACTERS.test(name)) return false;
  return !RESERVED_NAME.test(name);
}
