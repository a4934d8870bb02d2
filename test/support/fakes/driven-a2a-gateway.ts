import type { A2aFrame, A2aOutgoingMessage } from '../../../src/wire/a2a-wire';
import { ScriptedA2aGateway } from './scripted-a2a-gateway';

/**
 * One upstream stream a test drives frame by frame: `push`, `end`, `fail`. Like the SDK gateway it honours
 * the run's abort signal: a read waiting for a frame rejects with an AbortError once the run aborts.
 */
export class FrameStream implements AsyncIterable<A2aFrame> {
  private readonly frames: A2aFrame[] = [];
  private ending?: { error?: unknown };
  private wake?: () => void;
  /** Frames the reader has taken so far. */
  taken = 0;

  /**
   * `endsOnAbort`: an abort ends the stream normally instead of failing it, as an upstream may close its
   * side cleanly when the run stops reading.
   */
  constructor(
    private readonly signal?: AbortSignal,
    private readonly endsOnAbort = false,
  ) {
    signal?.addEventListener('abort', () => this.wake?.(), { once: true });
  }

  get isAborted(): boolean {
    return this.signal?.aborted === true;
  }

  push(...frames: A2aFrame[]): void {
    this.frames.push(...frames);
    this.wake?.();
  }

  end(): void {
    this.ending = {};
    this.wake?.();
  }

  fail(error: unknown): void {
    this.ending = { error };
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<A2aFrame> {
    for (;;) {
      if (this.signal?.aborted) {
        if (this.endsOnAbort) return;
        throw new DOMException('This operation was aborted', 'AbortError');
      }
      const frame = this.frames.shift();
      if (frame) {
        this.taken++;
        yield frame;
        continue;
      }
      if (this.ending?.error !== undefined) throw this.ending.error;
      if (this.ending) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/**
 * A ScriptedA2aGateway whose SendStreamingMessage and SubscribeToTask streams the test drives (each call
 * opens a FrameStream, in `streams`), whose CancelTask can be held open (`holdCancels`), and whose GetTask
 * answers `taskSnapshot`. Every call is recorded in `calls`, in order, but the Pipeline state endpoint's: it
 * answers `pipelineState` and records the sequence each call asked after in `pipelineStateAfter`. SendMessage
 * answers are recorded in `sideMessages`; `sessionRestorable = false` makes ensure-restored answer 404;
 * `streamsEndOnAbort` makes the streams opened from then on end normally when the run aborts.
 */
export class DrivenA2aGateway extends ScriptedA2aGateway {
  readonly streams: FrameStream[] = [];
  readonly calls: string[] = [];
  readonly sideMessages: A2aOutgoingMessage[] = [];
  readonly pipelineStateAfter: number[] = [];
  taskSnapshot?: A2aFrame;
  pipelineState?: Record<string, unknown>;
  sessionRestorable = true;
  streamsEndOnAbort = false;
  private heldCancel?: Promise<void>;
  private releaseCancels?: () => void;
  private opened?: () => void;

  override async *sendStreamingMessage(
    message: A2aOutgoingMessage,
    signal?: AbortSignal,
  ): AsyncIterable<A2aFrame> {
    this.calls.push('SendStreamingMessage');
    this.sentMessages.push(message);
    yield* this.open(signal);
  }

  /** `(taskId, signal)`, as A2aGateway declares it. */
  override async *subscribeToTask(...args: unknown[]): AsyncIterable<A2aFrame> {
    this.calls.push('SubscribeToTask');
    yield* this.open(args[1] as AbortSignal | undefined);
  }

  override async getTask(taskId: string): Promise<A2aFrame> {
    this.calls.push('GetTask');
    return this.taskSnapshot ?? super.getTask(taskId);
  }

  override async sendMessage(message: A2aOutgoingMessage): Promise<A2aFrame> {
    this.calls.push('SendMessage');
    this.sideMessages.push(message);
    return { task: { id: message.taskId ?? 'task-1', status: { state: 'TASK_STATE_WORKING' } } };
  }

  override async ensureSessionRestored(): Promise<boolean> {
    this.calls.push('ensure-restored');
    return this.sessionRestorable;
  }

  /** `(taskId, afterSequence, signal)`, as A2aGateway declares it. */
  override async getPipelineState(...args: unknown[]): Promise<Record<string, unknown> | undefined> {
    this.pipelineStateAfter.push(args[1] as number);
    return this.pipelineState;
  }

  /** CancelTask calls are recorded at once but answer only after `releaseCancels()`. */
  holdCancels(): () => void {
    this.heldCancel = new Promise<void>((resolve) => (this.releaseCancels = resolve));
    return () => this.releaseCancels?.();
  }

  override async cancelTask(taskId: string): Promise<void> {
    this.calls.push('CancelTask');
    const answered = super.cancelTask(taskId);
    await this.heldCancel;
    return answered;
  }

  /** The stream of the `index`th streaming call, once it is open. */
  async stream(index = 0): Promise<FrameStream> {
    while (this.streams.length <= index) await new Promise<void>((resolve) => (this.opened = resolve));
    return this.streams[index];
  }

  private open(signal?: AbortSignal): FrameStream {
    const stream = new FrameStream(signal, this.streamsEndOnAbort);
    this.streams.push(stream);
    this.opened?.();
    return stream;
  }
}
