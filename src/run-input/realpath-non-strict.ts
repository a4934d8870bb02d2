import { realpathSync } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';

/** Symlink hops before giving up, as Linux's own limit (ELOOP). */
const MAX_SYMLINK_HOPS = 40;

/**
 * Python's `Path.resolve(strict=False)` (docs/behaviour/run-input.md#cwd step 2): follow every symlink that exists, even a
 * dangling one, and keep the missing tail as written. A symlink escape is then visible to the root check,
 * whether or not the target exists yet. Throws (ELOOP) only on a symlink loop.
 *
 * Linear in the number of components: the components still to walk are a stack (no array shifting), and
 * below the first missing directory nothing can exist, so its descendants are appended without an `lstat`
 * until a `..` climbs back above it.
 */
export async function realpathNonStrict(absolutePath: string): Promise<string> {
  // A path that exists (every run's workspace after the first) resolves in one realpath(3): with no missing
  // tail both resolutions are the same. Synchronous, like the Python original's: cheaper than the walk's
  // thread-pool round trips (docs/benchmarks.md#per-run-profile). Any failure takes the walk, which decides.
  try {
    return realpathSync.native(absolutePath);
  } catch {
    return walk(absolutePath);
  }
}

async function walk(absolutePath: string): Promise<string> {
  const root = path.parse(absolutePath).root;
  const pending = splitComponents(absolutePath.slice(root.length)).reverse();
  /** The resolved path after each component so far: a `..` pops one, nothing is re-joined. */
  let prefixes: string[] = [];
  /** How many components had been resolved when the first missing one was met; undefined while all exist. */
  let missingFrom: number | undefined;
  let hops = 0;
  while (pending.length > 0) {
    const component = pending.pop() as string;
    if (component === '.') continue;
    if (component === '..') {
      prefixes.pop();
      if (missingFrom !== undefined && prefixes.length <= missingFrom) missingFrom = undefined;
      continue;
    }
    const parent = prefixes.at(-1);
    const candidate = parent === undefined ? root + component : parent + path.sep + component;
    prefixes.push(candidate);
    if (missingFrom !== undefined) continue;
    const stats = await lstat(candidate).catch(() => undefined); // missing (or unreadable): kept as written
    if (stats === undefined) {
      missingFrom = prefixes.length - 1;
      continue;
    }
    if (!stats.isSymbolicLink()) continue;
    if (++hops > MAX_SYMLINK_HOPS) throw Object.assign(new Error('symlink loop'), { code: 'ELOOP' });
    const target = await readlink(candidate);
    prefixes.pop();
    if (path.isAbsolute(target)) prefixes = [];
    pending.push(...splitComponents(target).reverse());
  }
  return prefixes.at(-1) ?? root;
}

function splitComponents(value: string): string[] {
  // A backslash is an ordinary file name character on POSIX.
  return value.split(path.sep === '/' ? '/' : /[\\/]/).filter((component) => component !== '');
}
