import { GroupedDirectorySync } from './grouped-directory-sync';

/** A directory fsync the test finishes by hand: each call of `syncNow` is one started fsync. */
class ManualFsync {
  readonly started: { resolve: () => void; reject: (error: Error) => void }[] = [];

  readonly syncNow = (): Promise<void> =>
    new Promise<void>((resolve, reject) => this.started.push({ resolve, reject }));

  finish(index: number): Promise<void> {
    this.started[index].resolve();
    return settle();
  }

  fail(index: number, error: Error): Promise<void> {
    this.started[index].reject(error);
    return settle();
  }
}

/** Lets every callback of already settled promises run (no timers involved). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}

/** Records when each request's promise settles, in order. */
function track(promise: Promise<void>, name: string, log: string[]): Promise<void> {
  return promise.then(
    () => void log.push(`${name} ok`),
    (error: Error) => void log.push(`${name} failed: ${error.message}`),
  );
}

describe('GroupedDirectorySync', () => {
  let fsync: ManualFsync;
  let directory: GroupedDirectorySync;
  const log: string[] = [];

  beforeEach(() => {
    fsync = new ManualFsync();
    directory = new GroupedDirectorySync(fsync.syncNow);
    log.length = 0;
  });

  it('starts an fsync at once when none is running, and resolves when it completes', async () => {
    void track(directory.sync(), 'a', log);
    expect(fsync.started).toHaveLength(1);
    await settle();
    expect(log).toEqual([]);
    await fsync.finish(0);
    expect(log).toEqual(['a ok']);
  });

  it('lets every request made during a running fsync share the next one', async () => {
    void track(directory.sync(), 'a', log);
    for (const name of ['b', 'c', 'd']) void track(directory.sync(), name, log);
    await settle();
    expect(fsync.started).toHaveLength(1);
    await fsync.finish(0);
    // b, c and d asked after fsync 0 had started: it cannot cover their renames.
    expect(log).toEqual(['a ok']);
    expect(fsync.started).toHaveLength(2);
    await fsync.finish(1);
    expect(log).toEqual(['a ok', 'b ok', 'c ok', 'd ok']);
  });

  it('starts a fresh fsync for a request made after the last one completed', async () => {
    void track(directory.sync(), 'a', log);
    await fsync.finish(0);
    void track(directory.sync(), 'b', log);
    expect(fsync.started).toHaveLength(2);
    await fsync.finish(1);
    expect(log).toEqual(['a ok', 'b ok']);
  });

  it('fails every request that waited for a failed fsync, and starts anew for the next', async () => {
    void track(directory.sync(), 'a', log);
    void track(directory.sync(), 'b', log);
    void track(directory.sync(), 'c', log);
    await fsync.finish(0);
    expect(log).toEqual(['a ok']);
    await fsync.fail(1, new Error('EIO'));
    expect(log).toEqual(['a ok', 'b failed: EIO', 'c failed: EIO']);
    void track(directory.sync(), 'd', log);
    expect(fsync.started).toHaveLength(3);
    await fsync.finish(2);
    expect(log.at(-1)).toBe('d ok');
  });

  it('fails the running fsync`s requests only: those queued behind it still get their own', async () => {
    void track(directory.sync(), 'a', log);
    void track(directory.sync(), 'b', log);
    await fsync.fail(0, new Error('EIO'));
    expect(log).toEqual(['a failed: EIO']);
    expect(fsync.started).toHaveLength(2);
    await fsync.finish(1);
    expect(log).toEqual(['a failed: EIO', 'b ok']);
  });
});
