/**
 * Group commit of one directory's fsync (docs/behaviour/state.md#atomic-writes). A rename is durable once an
 * fsync of its directory that *started after* the rename has completed; so every write that asks while an
 * fsync is running waits for the next one, and all of them share it. Many threads writing at once (200 runs
 * starting together) then cost about two directory fsyncs per round instead of one each, queued.
 *
 * A failed fsync fails every write that waited for it; the next request starts a fresh one. Each caller
 * awaits its own sync, so the order of one thread's writes (serialised by its lock) is kept.
 */
export class GroupedDirectorySync {
  /** The fsync running now: too early for a rename that completes while it runs. */
  private running: Promise<void> | undefined;
  /** The fsync that starts when `running` ends, shared by every caller that asked meanwhile. */
  private queued: Promise<void> | undefined;

  /** `syncNow` opens the directory, fsyncs it and closes it. */
  constructor(private readonly syncNow: () => Promise<void>) {}

  /** Resolves once an fsync of the directory that started after this call has completed. */
  sync(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    const queued = this.running.then(noop, noop).then(() => {
      this.queued = undefined;
      return this.start();
    });
    this.queued = queued;
    return queued;
  }

  private start(): Promise<void> {
    const running = this.syncNow().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }
}

function noop(): void {}
