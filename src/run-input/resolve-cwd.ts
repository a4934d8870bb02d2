import { realpathSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { MessageKey } from '../i18n/message-key';
import { realpathNonStrict } from './realpath-non-strict';

/** Longest workspace path, in UTF-8 bytes (Linux's PATH_MAX), and most path components (docs/clients.md "Limits"). */
export const MAX_CWD_BYTES = 4096;
export const MAX_CWD_COMPONENTS = 255;

/**
 * The workspace a run may use (docs/behaviour/run-input.md#cwd): `~` and `$VAR` expanded (with the given home and
 * environment, never the process's), normalised, symlinks resolved non-strictly so an escape is caught,
 * contained in one of the existing allowed roots, a directory (created 0700 when missing). Returns the
 * resolved path, which is what gets bound to the thread and sent to A2A (step 7). Its size is checked, as
 * written and once expanded, before any filesystem call, so a hostile path costs no I/O.
 */
export async function resolveCwd(
  cwd: string,
  roots: readonly string[],
  homeDir: string,
  env: Readonly<Record<string, string>>,
): Promise<string> {
  assertWithinBounds(cwd);
  const withHome = expandHome(cwd, homeDir);
  if (cwd === '' || !path.isAbsolute(withHome)) throw invalid('cwdNotAbsolute');
  const expanded = expandVariables(withHome, env);
  assertWithinBounds(expanded);
  if (expanded.includes('\0')) throw invalid('cwdInvalid');
  const resolved = await realpathNonStrict(path.normalize(expanded)).catch((cause: unknown) => {
    throw invalid('cwdInvalid', cause);
  });
  const allowedRoots = existingRoots(roots, homeDir);
  if (!allowedRoots.some((root) => isInside(resolved, root))) throw invalid('cwdOutsideRoots');
  const existing = statOrUndefined(resolved);
  if (existing && !existing.isDirectory()) throw invalid('cwdNotDirectory');
  if (!existing) {
    await mkdir(resolved, { recursive: true, mode: 0o700 }).catch((cause: unknown) => {
      throw invalid('cwdCannotCreate', cause);
    });
  }
  return resolved;
}

/** Components are the non-empty names between separators, `.` and `..` included: what a kernel walks. */
function assertWithinBounds(value: string): void {
  // The length test first: a string over the byte cap is refused without being scanned.
  if (value.length > MAX_CWD_BYTES || Buffer.byteLength(value, 'utf8') > MAX_CWD_BYTES) {
    throw invalid('cwdTooLong');
  }
  let components = 0;
  for (const name of value.split(path.sep === '/' ? '/' : /[\\/]/))
    if (name !== '' && ++components > MAX_CWD_COMPONENTS) break;
  if (components > MAX_CWD_COMPONENTS) throw invalid('cwdTooLong');
}

/**
 * Each root `~`-expanded and fully resolved; roots that are not existing directories are dropped (step 3).
 * Resolved again on every request (a root may be replaced by a symlink at any time), with synchronous calls:
 * a realpath(3) and a stat cost less than two thread-pool round trips (docs/benchmarks.md#per-run-profile).
 */
function existingRoots(roots: readonly string[], homeDir: string): string[] {
  const resolved: string[] = [];
  for (const root of roots) {
    if (root === '') continue;
    let real: string;
    try {
      real = realpathSync.native(path.resolve(expandHome(root, homeDir)));
    } catch {
      continue;
    }
    if (statOrUndefined(real)?.isDirectory()) resolved.push(real);
  }
  return resolved;
}

function statOrUndefined(target: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(target);
  } catch {
    return undefined;
  }
}

function isInside(candidate: string, root: string): boolean {
  if (candidate === root) return true;
  return candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** Python's `expanduser` for the current user only: `~` and `~/…`; `~name` is left as written. */
function expandHome(value: string, homeDir: string): string {
  if (value !== '~' && !value.startsWith('~/')) return value;
  const home = homeDir.replace(/\/+$/, '');
  return home + value.slice(1) || '/';
}

/** Python's `expandvars`: `$NAME` and `${NAME}`; unknown variables stay as written. */
function expandVariables(value: string, env: Readonly<Record<string, string>>): string {
  return value.replace(/\$(\w+|\{[^}]*\})/g, (match, reference: string) => {
    const name = reference.startsWith('{') ? reference.slice(1, -1) : reference;
    return Object.hasOwn(env, name) ? env[name] : match;
  });
}

function invalid(key: MessageKey, cause?: unknown): AguiError {
  return new AguiError(ErrorCode.INVALID_INPUT, key, cause === undefined ? undefined : { cause });
}
