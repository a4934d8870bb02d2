import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { A2aGateway } from '../../../src/a2a/a2a-gateway';
import type { A2aFrame, A2aOutgoingMessage } from '../../../src/wire/a2a-wire';
import { AguiError } from '../../../src/common/agui-error';
import { ErrorCode } from '../../../src/common/error-code';
import { endOfTurnFrames, statusFrame, textDeltaFrame } from '../../../src/demo-kernel/kernel-frames';

/**
 * An in-process `A2aGateway` that answers every `SendStreamingMessage` with one short kernel turn: WORKING,
 * the given text deltas, then the kernel's end of turn (docs/behaviour/a2a.md#the-kernels-own-behaviour). It records
 * the messages it was sent, so a test can prove it was the gateway in use. `forgetTasks()` makes it behave
 * like a restarted kernel: GetTask and CancelTask answer TaskNotFoundError; `failCancels()` makes CancelTask
 * fail the transient way (a timeout). CancelTask failures are wrapped as SdkA2aGateway wraps them.
 */
export class ScriptedA2aGateway implements A2aGateway {
  readonly sentMessages: A2aOutgoingMessage[] = [];
  readonly cancelledTaskIds: string[] = [];
  private hasForgotten = false;
  private cancelFailure?: unknown;

  constructor(private readonly deltas: readonly string[] = ['Hello ', 'from the scripted gateway.']) {}

  async *sendStreamingMessage(message: A2aOutgoingMessage, _signal?: AbortSignal): AsyncIterable<A2aFrame> {
    this.sentMessages.push(message);
    const ids = {
      taskId: `task-${this.sentMessages.length}`,
      contextId: message.contextId,
      sessionId: 'session-scripted',
    };
    yield statusFrame(ids, 'TASK_STATE_WORKING');
    for (const delta of this.deltas) yield textDeltaFrame(ids, delta);
    for (const frame of endOfTurnFrames(ids, this.deltas.join(''))) yield frame;
  }

  forgetTasks(): void {
    this.hasForgotten = true;
  }

  failCancels(cause: unknown = new Error('CancelTask timed out')): void {
    this.cancelFailure = cause;
  }

  async cancelTask(taskId: string): Promise<void> {
    const cause = this.cancelFailure ?? (this.hasForgotten ? new TaskNotFoundError(taskId) : undefined);
    if (cause) throw new AguiError(ErrorCode.A2A_UNAVAILABLE, 'a2aUnavailable', { cause });
    this.cancelledTaskIds.push(taskId);
  }

  async getTask(taskId: string): Promise<A2aFrame> {
    if (this.hasForgotten) throw new TaskNotFoundError(`Task not found: ${taskId}`);
    return { task: { id: taskId, status: { state: 'TASK_STATE_COMPLETED' } } };
  }

  async *subscribeToTask(): AsyncIterable<A2aFrame> {
    // Nothing to replay: the scripted turns never stay open.
  }

  async sendMessage(_message?: A2aOutgoingMessage): Promise<A2aFrame> {
    return { message: { messageId: 'scripted', role: 'ROLE_AGENT', parts: [] } };
  }

  async ensureSessionRestored(): Promise<boolean> {
    return true;
  }

  async getPipelineState(): Promise<Record<string, unknown> | undefined> {
    return undefined;
  }

  async checkReady(): Promise<void> {}
}
