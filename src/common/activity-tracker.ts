import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from './clock';

/** AgentCore's ping body (docs/behaviour/agentcore.md). */
export interface PingStatus {
  readonly status: 'Healthy' | 'HealthyBusy';
  /** Unix seconds of the last status change, not of the ping: a moving value would defeat the idle timeout. */
  readonly time_of_last_update: number;
}

/**
 * Counts the work that must keep an AgentCore session alive: open runs (SSE or WebSocket) and upstream
 * cancels in flight. The platform reads it through `GET /ping` (docs/behaviour/agentcore.md#ping); `time_of_last_update`
 * moves only when the status flips between idle and busy, so two idle pings answer the same value.
 */
@Injectable()
export class ActivityTracker {
  private active = 0;
  private changedAtMs: number;

  constructor(@Inject(CLOCK) private readonly clock: Clock) {
    this.changedAtMs = clock.now();
  }

  /** Marks one piece of work as started; the returned function ends it (calling it twice ends it once). */
  begin(): () => void {
    if (this.active++ === 0) this.changedAtMs = this.clock.now();
    let isEnded = false;
    return () => {
      if (isEnded) return;
      isEnded = true;
      if (--this.active === 0) this.changedAtMs = this.clock.now();
    };
  }

  /** Runs `work` as busy time, ending it however `work` settles. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await work();
    } finally {
      end();
    }
  }

  get isBusy(): boolean {
    return this.active > 0;
  }

  ping(): PingStatus {
    return {
      status: this.isBusy ? 'HealthyBusy' : 'Healthy',
      time_of_last_update: Math.floor(this.changedAtMs / 1000),
    };
  }
}
