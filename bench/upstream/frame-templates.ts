import {
  endOfTurnFrames,
  kernelSessionId,
  statusFrame,
  textDeltaFrame,
} from '../../src/demo-kernel/kernel-frames';
import { formatKernelDataFrame } from '../../src/demo-kernel/kernel-sse-frames';

/** The identity of one streamed task: only these differ between requests. */
export interface StreamIdentity {
  /** The JSON-RPC id of the request, echoed in every frame. */
  readonly requestId: unknown;
  readonly taskId: string;
  /** The request message's contextId (the gateway checks every frame against it). */
  readonly contextId: string;
}

/** Text of a burst delta: short, like one model token. */
export const BURST_DELTA_TEXT = 'token-42 ';
// Stands in for the stamp in the paced delta: plain ASCII, so JSON.stringify leaves it as it is.
const STAMP_SLOT = 'STAMP-SLOT-7f3a9c';
/** How many burst frames go into one socket write: the kernel writes one per event, TCP merges them anyway. */
export const BURST_FRAMES_PER_WRITE = 32;

/**
 * The kernel's frames for one request, encoded once (docs/behaviour/a2a.md#the-kernels-own-behaviour, "Text", "End of a normal
 * turn"; src/demo-kernel/kernel-frames.ts), so the upstream's per-delta cost is a buffer write: a burst
 * delta is one prebuilt buffer; a paced delta is a prefix, the stamp and a suffix.
 */
export class FrameTemplates {
  /** `task` SUBMITTED, `statusUpdate` SUBMITTED, as the kernel opens a new task. */
  readonly opening: Buffer;
  /** `BURST_FRAMES_PER_WRITE` identical burst deltas in one buffer, and one alone for the remainder. */
  readonly burstChunk: Buffer;
  readonly burstDelta: Buffer;
  /** WORKING repeat with `assistantFinal.complete: true`, then INPUT_REQUIRED. */
  readonly closing: Buffer;
  readonly cancelled: Buffer;
  private readonly pacedPrefix: string;
  private readonly pacedSuffix: string;

  constructor(identity: StreamIdentity) {
    const ids = {
      taskId: identity.taskId,
      contextId: identity.contextId,
      sessionId: kernelSessionId(identity.contextId),
    };
    const frame = (result: unknown) =>
      formatKernelDataFrame({ jsonrpc: '2.0', id: identity.requestId, result });
    const task = {
      task: { id: ids.taskId, contextId: ids.contextId, status: { state: 'TASK_STATE_SUBMITTED' } },
    };
    this.opening = Buffer.from(frame(task) + frame(statusFrame(ids, 'TASK_STATE_SUBMITTED')));
    this.burstDelta = Buffer.from(frame(textDeltaFrame(ids, BURST_DELTA_TEXT)));
    this.burstChunk = Buffer.concat(Array.from({ length: BURST_FRAMES_PER_WRITE }, () => this.burstDelta));
    // The kernel repeats the whole answer here; the gateway drops the repeat (it already sent text), so a
    // short stand-in keeps the proxy's last frame from dwarfing the run while costing the gateway the same.
    this.closing = Buffer.from(endOfTurnFrames(ids, 'done').map(frame).join(''));
    this.cancelled = Buffer.from(frame(statusFrame(ids, 'TASK_STATE_CANCELED')));
    const [prefix, suffix] = frame(textDeltaFrame(ids, STAMP_SLOT)).split(STAMP_SLOT);
    this.pacedPrefix = prefix;
    this.pacedSuffix = suffix;
  }

  /**
   * A paced delta whose text is `ts=<written µs> s=<scheduled µs> ` (shared clock): the client subtracts
   * the first from its read time for the path latency, the second for the delay a user sees.
   */
  pacedDelta(writtenUs: number, scheduledUs: number): string {
    return `${this.pacedPrefix}ts=${writtenUs} s=${scheduledUs} ${this.pacedSuffix}`;
  }
}
