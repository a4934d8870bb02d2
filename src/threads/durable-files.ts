import { closeSync, constants, fchmodSync, fsync, open, openSync, rename, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';

/** Owner read and write only: the mode of every file the file store writes. */
export const PRIVATE_FILE_MODE = 0o600;
const RENAME_ATTEMPTS = 3;
const RENAME_RETRY_DELAY_MS = 10;

/** Creates a file, writes it and fsyncs it: the store's one kind of write (a port, so a test can fill the disk). */
export type DurableWrite = (path: string, text: string) => Promise<void>;

/**
 * Only what may wait for the disk or the journal goes to the thread pool: creating the file, its fsync, the
 * rename and the directory's fsync (a create or rename right after an fsync waits ~0.3–1 ms for the journal
 * on ext4: it must not block the event loop). The write into the page cache, the fchmod and the closes are
 * synchronous: microseconds each, less than a thread-pool round trip (docs/benchmarks.md#per-run-profile).
 */
export async function writeFileDurably(path: string, text: string): Promise<void> {
  // O_EXCL|O_NOFOLLOW: never write through a file or link someone planted at the temp name.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const fd = await openInPool(path, flags, PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE); // the umask may have narrowed, never widened, the mode; be exact
    writeFileSync(fd, text, 'utf8');
    await fsyncOf(fd);
  } finally {
    closeSync(fd);
  }
}

// The callback forms: a plain descriptor, no FileHandle object per call.
const openInPool = promisify(open);
const fsyncOf = promisify(fsync);
const renameInPool = promisify(rename);

/** The Python store retries the rename up to 3 times: Windows refuses it while a reader has the file open. */
export async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await renameInPool(from, to);
      return;
    } catch (error) {
      if (attempt >= RENAME_ATTEMPTS || isErrno(error, 'ENOENT')) throw error;
      await new Promise((resolve) => setTimeout(resolve, RENAME_RETRY_DELAY_MS * attempt));
    }
  }
}

/** The fsync that makes a rename in the directory itself survive a power cut. */
export async function fsyncDirectory(path: string): Promise<void> {
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await fsyncOf(fd);
  } finally {
    closeSync(fd);
  }
}

export function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}
