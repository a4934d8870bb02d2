/**
 * Where a fault script stops until a test lets it go: `hold` steps wait only while a test has armed them
 * (the test entry's `/__test/holds`), so a test can see the gateway's events for everything before the
 * fault and only then release it, instead of racing a timer. Unarmed (the embedded demo agent, every other
 * test) a hold goes on at once.
 */
export class KernelHolds {
  private isArmed = false;
  private readonly waiting = new Set<() => void>();

  /** The next `hold` steps wait until `release`. */
  arm(): void {
    this.isArmed = true;
  }

  /** Lets every waiting hold go on, and disarms. */
  release(): void {
    this.isArmed = false;
    for (const wake of [...this.waiting]) wake();
  }

  /** Resolves at once when unarmed, else on `release` or when `signal` aborts. */
  async wait(signal: AbortSignal): Promise<void> {
    if (!this.isArmed || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.waiting.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.waiting.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
