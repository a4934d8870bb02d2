import { KernelHolds } from './kernel-holds';

describe('KernelHolds', () => {
  it('lets a hold go on at once while unarmed', async () => {
    await expect(new KernelHolds().wait(new AbortController().signal)).resolves.toBeUndefined();
  });

  it('keeps an armed hold until release, then disarms', async () => {
    const holds = new KernelHolds();
    holds.arm();
    let isReleased = false;
    const held = holds.wait(new AbortController().signal).then(() => (isReleased = true));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(isReleased).toBe(false);
    holds.release();
    await held;
    expect(isReleased).toBe(true);
    await expect(holds.wait(new AbortController().signal)).resolves.toBeUndefined();
  });

  it('ends an armed hold when its turn is aborted', async () => {
    const holds = new KernelHolds();
    holds.arm();
    const turn = new AbortController();
    const held = holds.wait(turn.signal);
    turn.abort();
    await expect(held).resolves.toBeUndefined();
  });
});
