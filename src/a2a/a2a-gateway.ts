import type { A2aFrame, A2aOutgoingMessage } from '../wire/a2a-wire';

/**
 * The A2A side of a run, behind a token so tests and platform teams can swap it (CONTRIBUTING.md).
 * The default implementation speaks A2A 1.0 JSON-RPC through the `@a2a-js/sdk` client.
 */
export const A2A_GATEWAY = Symbol('A2A_GATEWAY');

/**
 * Every unary call is bounded by IAC_CODE_AGUI_A2A_CALL_TIMEOUT_SECONDS and every stream by
 * IAC_CODE_AGUI_A2A_IDLE_SECONDS of silence; a run also passes its own signal, so a client that leaves
 * stops the call at once.
 */
export interface A2aGateway {
  /** `SendStreamingMessage`; the iterable ends when the upstream closes the stream (A2A 1.0 has no `final`). */
  sendStreamingMessage(message: A2aOutgoingMessage, signal: AbortSignal): AsyncIterable<A2aFrame>;
  /** `CancelTask`, bounded by IAC_CODE_AGUI_CANCEL_TIMEOUT_SECONDS; rejects on failure or timeout. */
  cancelTask(taskId: string): Promise<void>;
  /** `GetTask` with `historyLength` (default 100), returned as `{ task }`. */
  getTask(taskId: string, historyLength?: number, signal?: AbortSignal): Promise<A2aFrame>;
  /** `SubscribeToTask`; the first frame is the current task snapshot. */
  subscribeToTask(taskId: string, signal: AbortSignal): AsyncIterable<A2aFrame>;
  /** Non-streaming `SendMessage` (sideband permission answers, docs/behaviour/interrupts.md#forwarding-answers); resolves with `{task}` or `{message}`. */
  sendMessage(message: A2aOutgoingMessage): Promise<A2aFrame>;
  /**
   * `POST <a2a>/iac-code/session/ensure-restored` before a resume (docs/behaviour/a2a.md#transport, docs/behaviour/interrupts.md#resume-preparation step 2): true when
   * the session is current or was restored, false when the kernel cannot restore it (404). A backup still
   * syncing rejects with AguiError SESSION_BACKUP_NOT_READY.
   */
  ensureSessionRestored(
    request: { cwd: string; sessionId: string; taskId: string },
    signal?: AbortSignal,
  ): Promise<boolean>;
  /** `GET <a2a>/iac-code/pipeline/state` (docs/behaviour/events.md#pipeline-recovery); undefined when the task has no Pipeline (404). */
  getPipelineState(
    taskId: string,
    afterSequence: number,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown> | undefined>;
  /** Resolves when the upstream answers its agent card; used by /health/ready. */
  checkReady(): Promise<void>;
}
