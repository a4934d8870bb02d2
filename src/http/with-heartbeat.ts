/** The SSE comment written after each period of silence (docs/behaviour/sse.md): not an AG-UI event. */
export const HEARTBEAT_COMMENT = ': heartbeat\n\n';

/**
 * Calls `beat` after every `periodMs` without a frame, the wait restarting after each frame, and never
 * after `stop`. A frame only records its time (`frameSent`): the one timer of the run re-arms itself for
 * the rest of the period when it finds a recent frame, rather than a timer per frame (that cost about a
 * tenth of the gateway's CPU per event in `npm run bench`).
 */
export class Heartbeat {
  private lastFrameAt: number;
  private timer: NodeJS.Timeout | undefined;
  private isStopped = false;

  constructor(
    private readonly periodMs: number,
    private readonly beat: () => void,
    private readonly now: () => number = Date.now,
  ) {
    this.lastFrameAt = now();
    this.arm(periodMs);
  }

  frameSent(): void {
    this.lastFrameAt = this.now();
  }

  stop(): void {
    this.isStopped = true;
    clearTimeout(this.timer);
  }

  private arm(delay: number): void {
    this.timer = setTimeout(() => {
      const silence = this.now() - this.lastFrameAt;
      if (silence < this.periodMs) return this.arm(this.periodMs - silence);
      this.beat();
      this.lastFrameAt = this.now();
      if (!this.isStopped) this.arm(this.periodMs);
    }, delay);
  }
}
