import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { CLOCK, type Clock } from '../common/clock';
import { THREAD_STORE, ThreadStoreNotReadyError, storeFailureReason, type ThreadStore } from './thread-store';

/**
 * A probe that has not answered by then counts as down: a stalled Redis (or disk) must give a prompt 503, well
 * inside a probe's own timeout, not hold the readiness route for the store's command timeout.
 */
export const STORE_PROBE_DEADLINE_MS = 1000;
/**
 * How long a probe that answered "up" is reused, counted from when it was *sent*: the readiness route is open
 * and polled by every probe of every replica, and the file store's probe is a real write and fsync. Short, so
 * a stall that starts right after a good probe is seen within this plus the deadline (docs/behaviour/state.md#readiness).
 * A probe that failed, or took longer than this, is never reused: the next check probes again.
 */
export const STORE_PROBE_REUSE_MS = 100;

/** `up`, `no answer in time`, or the failure (a store's own reason, or storeFailureReason: errno and path). */
type ProbeResult = string;

/** Ready only when the thread store can write (the state directory, or Redis). */
@Injectable()
export class ThreadStoreHealthIndicator {
  private lastProbe?: {
    readonly sentAt: number;
    readonly result: Promise<ProbeResult>;
    answer?: ProbeResult;
  };

  constructor(
    private readonly health: HealthIndicatorService,
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async isHealthy(key = 'threadStore') {
    const indicator = this.health.check(key);
    const result = await this.probe();
    return result === 'up' ? indicator.up() : indicator.down({ reason: result });
  }

  /**
   * A probe in flight is shared by every check that comes meanwhile; a finished one is reused only if it said
   * "up" and was sent less than STORE_PROBE_REUSE_MS ago.
   */
  private probe(): Promise<ProbeResult> {
    const now = this.clock.now();
    const last = this.lastProbe;
    const isReusable =
      last !== undefined &&
      (last.answer === undefined || (last.answer === 'up' && now - last.sentAt < STORE_PROBE_REUSE_MS));
    if (isReusable) return last.result;
    let deadline: NodeJS.Timeout | undefined;
    const late = new Promise<ProbeResult>((resolve) => {
      deadline = setTimeout(() => resolve('no answer in time'), STORE_PROBE_DEADLINE_MS);
      deadline.unref();
    });
    const answered = this.store.checkReady().then(
      (): ProbeResult => 'up',
      (error: unknown): ProbeResult =>
        error instanceof ThreadStoreNotReadyError ? error.reason : storeFailureReason(error),
    );
    const probe: NonNullable<typeof this.lastProbe> = {
      sentAt: now,
      result: Promise.race([answered, late]).then((answer) => {
        clearTimeout(deadline);
        probe.answer = answer;
        return answer;
      }),
    };
    this.lastProbe = probe;
    return probe.result;
  }
}
