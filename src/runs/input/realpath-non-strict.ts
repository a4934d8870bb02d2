import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';

/** Symlink hops before giving up, as Linux's own limit (ELOOP). */
const MAX_SYMLINK_HOPS = 40;

/**
 * Python's `Path.resolve(strict=False)` (reference §2.3 step 2): follow every symlink that exists, even a
 * dangling one, and keep the missing tail as written. A symlink escape is then visible to the root check,
 * whether or not the target exists yet. Throws (ELOOP) only on a symlink loop.
 */
export async function realpathNonStrict(absolutePath: string): Promise<string> {
  const root = path.parse(absolutePath).root;
  const pending = splitComponents(absolutePath.slice(root.length));
  let resolved = root;
  let hops = 0;
  while (pending.length > 0) {
    const component = pending.shift() as string;
    if (component === '.') continue;
    if (component === '..') {
      resolved = path.dirname(resolved);
      continue;
    }
    const candidate = path.join(resolved, component);
    const isLink = await lstat(candidate).then(
      (stats) => stats.isSymbolicLink(),
      () => false, // missing (or unreadable): kept as written, like the non-strict original
    );
    if (!isLink) {
      resolved = candidate;
      continue;
    }
    if (++hops > MAX_SYMLINK_HOPS) throw Object.assign(new Error('symlink loop'), { code: 'ELOOP' });
    const target = await readlink(candidate);
    if (path.isAbsolute(target)) resolved = path.parse(target).root;
    pending.unshift(...splitComponents(target));
  }
  return resolved;
}

function splitComponents(value: string): string[] {
  // A backslash is an ordinary file name character on POSIX.
  return value.split(path.sep === '/' ? '/' : /[\\/]/).filter((component) => component !== '');
}
