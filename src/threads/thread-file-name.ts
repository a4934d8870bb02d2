import { createHash, randomBytes } from 'node:crypto';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';

const ENCODED_PREFIX = 'aguiid~';
const HASHED_PREFIX = 'aguihash~';
/** Longest stem kept readable-reversible; past it the id is hashed (docs/behaviour/state.md#file-stems `_MAX_ATOMIC_FILE_STEM_LENGTH`). */
const MAX_STEM_LENGTH = 200;
/**
 * The longest file name most file systems allow (NAME_MAX). The atomic write's temp name is the Python
 * store's shape, `.<stem>.json.<8 random>.tmp` (its `mkstemp`), so both fit the same stems: up to 236
 * characters. A readable id longer than that is hashed; every stem that could be written before keeps its
 * name, so its state file still loads.
 */
const NAME_MAX = 255;
const TEMP_RANDOM_BYTES = 4;
const SAFE_ID = /^[A-Za-z0-9_.-]+$/;
const LONE_SURROGATE = /\p{Surrogate}/u;
const WINDOWS_DEVICE_NAMES = new Set([
  'CON',
  'PRN',
  'AUX',
  'NUL',
  ...Array.from({ length: 9 }, (_, i) => `COM${i + 1}`),
  ...Array.from({ length: 9 }, (_, i) => `LPT${i + 1}`),
]);

/**
 * The key of a thread's state (docs/behaviour/state.md#file-stems), compatible with the Python adapter's `_thread_file_stem`
 * so both can share a state directory or Redis database:
 * - a lower-case id of `[A-Za-z0-9_.-]` is used as is, unless it is `.`/`..`, ends in a dot, or names a
 *   Windows device (`CON`, `com1.txt`, …);
 * - anything else becomes `aguiid~<hex of the UTF-8 bytes>`: lower-case hex, so ids that differ only in
 *   case stay distinct on case-insensitive file systems (macOS, Windows);
 * - if that is longer than 200 characters, `aguihash~<sha256 hex>`; the document keeps the real id and
 *   the store verifies it on load, so a hash collision cannot hand one thread another's state.
 */
export function threadStateKey(threadId: string): string {
  if (typeof threadId !== 'string' || threadId.length === 0) {
    throw new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable');
  }
  if (isReadableId(threadId)) return threadId;
  // Python's `.encode("utf-8")` raises on a lone surrogate and the adapter answers 400 INVALID_INPUT
  // (docs/behaviour/http.md#request-checks item 9); Node would silently write U+FFFD and collide with another id's file.
  if (LONE_SURROGATE.test(threadId)) throw new AguiError(ErrorCode.INVALID_INPUT, 'invalidForwardedProps');
  const encoded = `${ENCODED_PREFIX}${Buffer.from(threadId, 'utf8').toString('hex')}`;
  if (encoded.length <= MAX_STEM_LENGTH) return encoded;
  return hashedStem(threadId);
}

/**
 * The stem of a thread's state file: its state key, unless that is a readable id too long for the temp
 * file name to fit NAME_MAX (over 236 characters), which is hashed like a long encoded id. The Python
 * store cannot write such a thread at all, so no existing file has that name.
 */
export function threadFileStem(threadId: string): string {
  const key = threadStateKey(threadId);
  return key.length <= MAX_READABLE_STEM_LENGTH ? key : hashedStem(threadId);
}

function hashedStem(threadId: string): string {
  return `${HASHED_PREFIX}${createHash('sha256').update(threadId, 'utf8').digest('hex')}`;
}

/** The name the atomic write of a thread's state uses before its rename (unique per write). */
export function threadTempFileName(stem: string): string {
  return `.${stem}.json.${randomBytes(TEMP_RANDOM_BYTES).toString('hex')}.tmp`;
}

/** Every temp name `threadTempFileName` gives, and the 16-hex form earlier versions wrote (for a sweep of leftovers). */
export const THREAD_TEMP_FILE_NAME = /^\.[^/]+\.json\.(?:[0-9a-f]{8}|[0-9a-f]{16})\.tmp$/;

const MAX_READABLE_STEM_LENGTH = NAME_MAX - threadTempFileName('').length;

function isReadableId(threadId: string): boolean {
  if (!SAFE_ID.test(threadId) || threadId !== threadId.toLowerCase()) return false;
  if (threadId === '.' || threadId === '..' || threadId.endsWith('.')) return false;
  // Python: thread_id.rstrip(".").split(".", 1)[0].upper() — `nul.json` is as reserved as `NUL`.
  const baseName = threadId.replace(/\.+$/, '').split('.', 1)[0].toUpperCase();
  return !WINDOWS_DEVICE_NAMES.has(baseName);
}
