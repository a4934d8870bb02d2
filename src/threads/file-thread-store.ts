import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Logger, type OnModuleInit } from '@nestjs/common';
import { AguiError } from '../common/agui-error';
import { SystemClock, type Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import {
  fsyncDirectory,
  isErrno,
  PRIVATE_FILE_MODE,
  renameWithRetry,
  writeFileDurably,
  type DurableWrite,
} from './durable-files';
import { GroupedDirectorySync } from './grouped-directory-sync';
import { THREAD_TEMP_FILE_NAME, threadFileStem, threadTempFileName } from './thread-file-name';
import { serializeThreadState, validateThreadState, type ThreadState } from './thread-state';
import { errnoOfStoreFailure, type ThreadStore } from './thread-store';

const PRIVATE_DIR_MODE = 0o700;
/**
 * A temp file older than this is a leftover of a killed process: a live write takes milliseconds. Younger
 * ones may belong to another process sharing the directory, mid-write.
 */
const STALE_TEMP_AGE_MS = 60_000;

export type { DurableWrite } from './durable-files';

export interface FileThreadStoreOptions {
  readonly clock?: Clock;
  readonly writeDurably?: DurableWrite;
}

/**
 * The embedded store: one owner-private JSON file per thread, `<stateDir>/threads/<stem>.json`
 * (docs/behaviour/state.md#file-stems, docs/behaviour/state.md#atomic-writes). Nothing is read at construction; a thread's file is read when that thread is
 * asked for, so a damaged file answers STATE_UNAVAILABLE for its own thread only. Several processes may
 * share the directory for different threads; there is no cross-process lock on one thread.
 */
export class FileThreadStore implements ThreadStore, OnModuleInit {
  private readonly logger = new Logger(FileThreadStore.name);
  private readonly threadsDir: string;
  private readonly clock: Clock;
  private readonly writeDurably: DurableWrite;
  /** Renames of threads written at the same time share one fsync of threads/. */
  private readonly threadsDirSync: GroupedDirectorySync;
  /** The directories made private once, not before every write; forgotten when a write fails. */
  private privateDirs: Promise<void> | undefined;
  /** The state directories already warned about as not tightened (once each, for the process's life). */
  private readonly untightened = new Set<string>();
  /** The last failure logged (errno and path): the same one again is not logged until a write succeeds. */
  private loggedFailure: string | undefined;

  constructor(
    private readonly stateDir: string,
    options: FileThreadStoreOptions = {},
  ) {
    this.threadsDir = join(stateDir, 'threads');
    this.clock = options.clock ?? new SystemClock();
    this.writeDurably = options.writeDurably ?? writeFileDurably;
    this.threadsDirSync = new GroupedDirectorySync(() => fsyncDirectory(this.threadsDir));
  }

  /** At start: a process killed between writing a temp file and renaming it left the file behind. */
  async onModuleInit(): Promise<void> {
    const removed = await this.removeStaleTempFiles();
    if (removed > 0)
      this.logger.log({ msg: 'removed stale temp files', count: removed, dir: this.threadsDir });
  }

  /** Removes this store's own temp files older than STALE_TEMP_AGE_MS; never any other file. */
  async removeStaleTempFiles(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.threadsDir);
    } catch {
      return 0; // no threads directory yet, or unreadable: readiness reports the latter
    }
    const cutoff = this.clock.now() - STALE_TEMP_AGE_MS;
    let removed = 0;
    for (const name of names.filter((candidate) => THREAD_TEMP_FILE_NAME.test(candidate))) {
      const path = join(this.threadsDir, name);
      try {
        const stats = await lstat(path);
        if (!stats.isFile() || stats.mtimeMs > cutoff) continue;
        await unlink(path);
        removed += 1;
      } catch {
        // Gone already (another process cleaned it) or not ours to remove: leave it.
      }
    }
    return removed;
  }

  pathForThread(threadId: string): string {
    return join(this.threadsDir, `${threadFileStem(threadId)}.json`);
  }

  /**
   * Synchronous calls, as in the Python store: opening for reading, reading and closing a small file (bounded
   * by docs/behaviour/bounds.md#memory) cost microseconds and wait for no journal, less than a thread-pool
   * round trip each (docs/benchmarks.md#per-run-profile).
   */
  load(threadId: string): Promise<ThreadState | undefined> {
    try {
      return Promise.resolve(this.loadNow(threadId));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private loadNow(threadId: string): ThreadState | undefined {
    const path = this.pathForThread(threadId);
    let text: string;
    try {
      const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
        fchmodSync(fd, PRIVATE_FILE_MODE); // through the descriptor: cannot be redirected by a symlink
        text = readFileSync(fd, 'utf8');
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return undefined;
      throw unavailable(error); // ELOOP: a symlink where the file should be
    }
    try {
      return validateThreadState(JSON.parse(text), threadId);
    } catch (error) {
      throw unavailable(error);
    }
  }

  /**
   * Atomic replace (docs/behaviour/state.md#atomic-writes): a temp file in the same directory, written and fsynced, renamed over the
   * target, then the directory fsynced so the rename itself survives a power cut (one fsync, started after
   * the rename, may cover the renames of several threads). A reader (or a process
   * killed mid-write) sees the old document or the new one, never a mix; a failed write leaves the old
   * document and removes the temp file.
   */
  async save(state: ThreadState): Promise<void> {
    const text = serializeThreadState(state);
    const target = this.pathForThread(state.threadId);
    const temp = this.tempPath(threadFileStem(state.threadId));
    try {
      await this.writeTemp(temp, text);
      await renameWithRetry(temp, target);
      await this.threadsDirSync.sync();
      this.loggedFailure = undefined;
    } catch (error) {
      // The next write makes the directories private again (someone may have changed them).
      this.privateDirs = undefined;
      await unlink(temp).catch(() => undefined);
      throw this.failed(error, temp);
    }
  }

  /**
   * A real small write, fsync and unlink, as a thread write does: `access(W_OK)` still passes on a full
   * disk or with no inode left, when every new thread would get 503. Callers limit how often this runs.
   * It also makes the directories private again.
   */
  async checkReady(): Promise<void> {
    const probe = this.tempPath('readiness');
    try {
      await (this.privateDirs = this.ensurePrivateDirs());
      await this.writeDurably(probe, '{}');
      await unlink(probe);
      this.loggedFailure = undefined;
    } catch (error) {
      this.privateDirs = undefined;
      await unlink(probe).catch(() => undefined);
      throw this.failed(error, probe);
    }
  }

  /**
   * A failed write is logged with its errno and path once (not again while the same failure repeats) and
   * answers STATE_UNAVAILABLE; readiness names the same errno and path (storeFailureReason).
   */
  private failed(error: unknown, path: string): AguiError {
    const { code, path: failedPath } = errnoOfStoreFailure(error) ?? {};
    const failure = `${code ?? 'error'} ${failedPath ?? path}`;
    if (this.loggedFailure !== failure) {
      this.loggedFailure = failure;
      this.logger.error({
        msg: 'a thread store write failed',
        errno: code,
        path: failedPath ?? path,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    return unavailable(error);
  }

  /** The directories are made private once; a temp file that finds threads/ gone makes them again. */
  private async writeTemp(temp: string, text: string): Promise<void> {
    await (this.privateDirs ??= this.ensurePrivateDirs());
    try {
      await this.writeDurably(temp, text);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
      await (this.privateDirs = this.ensurePrivateDirs());
      await this.writeDurably(temp, text);
    }
  }

  private tempPath(stem: string): string {
    return join(this.threadsDir, threadTempFileName(stem));
  }

  /**
   * State dir and threads/ are 0700 whatever the umask or a previous owner left. A directory this process
   * may write to but does not own (a volume's root-owned, group-writable root: docs/behaviour/state.md#the-state-directory)
   * cannot be chmod-ed: it is left as it is, with one warning naming it and its mode; the thread files stay
   * private all the same, in the threads/ this process creates and owns.
   */
  private async ensurePrivateDirs(): Promise<void> {
    await mkdir(this.threadsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await this.tighten(this.stateDir, 'the state directory');
    await this.tighten(this.threadsDir, "the state directory's threads/");
  }

  private async tighten(directory: string, name: string): Promise<void> {
    try {
      await chmod(directory, PRIVATE_DIR_MODE);
    } catch (error) {
      if (!isErrno(error, 'EPERM')) throw error;
      if (this.untightened.has(directory)) return;
      this.untightened.add(directory);
      const { mode, uid, gid } = await stat(directory);
      this.logger.warn({
        msg: `${name} is not this process's: left as it is, not made private (0700)`,
        path: directory,
        mode: (mode & 0o7777).toString(8).padStart(4, '0'),
        owner: `${uid}:${gid}`,
        processUid: process.getuid?.(),
      });
    }
  }
}

function unavailable(cause: unknown): AguiError {
  if (cause instanceof AguiError && cause.code !== ErrorCode.STATE_UNAVAILABLE) return cause;
  return new AguiError(ErrorCode.STATE_UNAVAILABLE, 'stateUnavailable', { cause });
}
