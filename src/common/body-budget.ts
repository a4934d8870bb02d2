import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** Bytes of request bodies in flight when no configuration says otherwise (IAC_CODE_AGUI_BODY_BUDGET_BYTES). */
export const DEFAULT_BODY_BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * A body is held three times while it is read and validated: its bytes, its text and its parsed value
 * (docs/behaviour/bounds.md#memory).
 */
const HELD_PER_BODY_BYTE = 3;

/**
 * The process-wide budget for request bodies being read (docs/behaviour/bounds.md#memory): the way a proxy
 * bounds its buffers, a body that would take the bytes in flight past it is refused at once (SERVER_BUSY,
 * retryable) instead of being buffered, so ten clients sending 12 MiB bodies cannot take the process past its
 * container's limit. A reader takes the charge of what a body announces (or of each chunk as it comes, without
 * a Content-Length) and gives it all back once the body is validated or refused. One instance per process.
 */
@Injectable()
export class BodyBudget {
  private inFlight = 0;
  private releaseListener?: (bytes: number) => void;
  readonly maxBytes: number;

  constructor(@Optional() @Inject(APP_CONFIG) config: Pick<AppConfig, 'bodyBudgetBytes'> | null = null) {
    this.maxBytes = config?.bodyBudgetBytes ?? DEFAULT_BODY_BUDGET_BYTES;
  }

  /**
   * What a body of `bytes` holds of the budget until it is validated: three times its size, but no more than
   * the whole budget, so that one body the budget can hold still passes alone (a larger one never does).
   */
  chargeFor(bytes: number): number {
    return Math.min(bytes * HELD_PER_BODY_BYTE, Math.max(bytes, this.maxBytes));
  }

  /** Takes `bytes`; false, taking nothing, when that would pass the budget. */
  tryTake(bytes: number): boolean {
    if (this.inFlight + bytes > this.maxBytes) return false;
    this.inFlight += bytes;
    return true;
  }

  give(bytes: number): void {
    this.inFlight = Math.max(0, this.inFlight - bytes);
    this.releaseListener?.(bytes);
  }

  /** Told of every charge given back: what a body leaves behind is garbage then (the memory reclaimer counts it). */
  onRelease(listener: (bytes: number) => void): void {
    this.releaseListener = listener;
  }

  /** Bytes of bodies being read now. */
  get bytesInFlight(): number {
    return this.inFlight;
  }
}
