import type { A2aFrame, A2aGateway, A2aOutgoingMessage } from '../../../src/a2a/a2a-gateway';
import { endOfTurnFrames, statusFrame, textDeltaFrame } from '../../../src/a2a/embedded/kernel-frames';

/**
 * An in-process `A2aGateway` that answers every `SendStreamingMessage` with one short kernel turn: WORKING,
 * the given text deltas, then the kernel's end of turn (kernel wire doc "End of a normal turn"). It records
 * the messages it was sent, so a test can prove it was the gateway in use.
 */
export class ScriptedA2aGateway implements A2aGateway {
  readonly sentMessages: A2aOutgoingMessage[] = [];
  readonly cancelledTaskIds: string[] = [];

  constructor(private readonly deltas: readonly string[] = ['Hello ', 'from the scripted gateway.']) {}

  async *sendStreamingMessage(message: A2aOutgoingMessage): AsyncIterable<A2aFrame> {
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

  async cancelTask(taskId: string): Promise<void> {
    this.cancelledTaskIds.push(taskId);
  }

  async getTask(taskId: string): Promise<A2aFrame> {
    return { task: { id: taskId, status: { state: 'TASK_STATE_COMPLETED' } } };
  }

  async *subscribeToTask(): AsyncIterable<A2aFrame> {
    // Nothing to replay: the scripted turns never stay open.
  }

  async sendMessage(): Promise<A2aFrame> {
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
