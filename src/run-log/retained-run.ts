import type { EventFrame } from '../wire/sse-frame';
import type { ThreadState } from '../threads/thread-state';
import type { RunEventLog } from './run-event-log';

/** Who a retained run belongs to: what a reattaching caller must prove (docs/behaviour/reattach.md#routes). */
export interface RetainedRunIdentity {
  readonly threadId: string;
  readonly runId: string;
  readonly executionId: string;
  /** The run's random token, the first half of each of its cursors. */
  readonly runToken: string;
  /** The thread as admitted for this run: its binding is what a caller proves. */
  readonly admittedState: ThreadState;
}

export interface RetainedRunOptions {
  /** How long the run keeps going after its last reader left (IAC_CODE_AGUI_REATTACH_SECONDS). */
  readonly graceMs: number;
  /**
   * Nobody came back in time: the run is told its client left, the rule of a normal disconnect (the A2A
   * task is cancelled). Called at most once.
   */
  readonly abandon: () => void;
  /** The run's events are over (not abandoned): its log stays readable for the window. */
  readonly ended: () => void;
  /** A frame was logged, as `sequence` (the shared log of Redis mode copies it). */
  readonly appended?: (sequence: number, frame: EventFrame) => void;
  /**
   * What is left of the window because of readers elsewhere (on other replicas), in ms: a reader that
   * follows keeps it open, one that left gives it the window from when it left. 0: nobody.
   */
  readonly remoteWindowLeftMs?: () => Promise<number>;
}

/**
 * A run that may outlive its connection (docs/behaviour/reattach.md): its event log, how many readers follow
 * it (the client that started it counts as the first), and the grace window that starts when the last one
 * leaves. Readers never cancel anything themselves; only the window's end does. A full log drops its
 * oldest events (docs/behaviour/reattach.md#bounds), whoever is attached.
 */
export class RetainedRun {
  private readers = 1;
  private graceTimer?: NodeJS.Timeout;
  private isRunOver = false;
  private wasAbandoned = false;

  constructor(
    readonly identity: RetainedRunIdentity,
    readonly log: RunEventLog,
    private readonly options: RetainedRunOptions,
  ) {}

  get abandoned(): boolean {
    return this.wasAbandoned;
  }

  get readerCount(): number {
    return this.readers;
  }

  /** The run's next frame (its id the cursor of the log's next sequence). */
  append(frame: EventFrame): void {
    if (this.wasAbandoned) return;
    this.log.append(frame.data);
    this.options.appended?.(this.log.lastSequence, frame);
  }

  /** A reader attached (a reattach or an observer): the grace window, if running, stops. */
  readerJoined(): void {
    this.readers++;
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }

  /** A reader left; when it was the last and the run is still going, the grace window starts. */
  readerLeft(): void {
    this.readers--;
    if (this.readers > 0 || this.isRunOver || this.wasAbandoned) return;
    this.startWindow();
  }

  private startWindow(ms = this.options.graceMs): void {
    this.graceTimer = setTimeout(() => this.windowOver(), ms);
    this.graceTimer.unref();
  }

  /**
   * Nobody here came back in time: the run is abandoned, unless readers on other replicas follow it or
   * left it less than the window ago; the window then ends that much later (it counts from the last
   * reader anywhere).
   */
  private windowOver(): void {
    const { remoteWindowLeftMs } = this.options;
    if (!remoteWindowLeftMs) return this.abandon();
    // An unreadable answer counts as nobody: the window's rule is not dropped because Redis is away.
    remoteWindowLeftMs().then(
      (leftMs) => this.windowCheckedElsewhere(leftMs),
      () => this.windowCheckedElsewhere(0),
    );
  }

  private windowCheckedElsewhere(leftMs: number): void {
    if (this.readers > 0 || this.isRunOver || this.wasAbandoned) return;
    if (leftMs > 0) this.startWindow(leftMs);
    else this.abandon();
  }

  /** The run's events are over: the log is complete. */
  runEnded(): void {
    if (this.isRunOver) return;
    this.isRunOver = true;
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.log.close();
    if (!this.wasAbandoned) this.options.ended();
  }

  private abandon(): void {
    if (this.wasAbandoned || this.isRunOver) return;
    this.wasAbandoned = true;
    clearTimeout(this.graceTimer);
    this.options.abandon();
  }
}
