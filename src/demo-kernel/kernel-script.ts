/**
 * What a scripted kernel turn does, as plain data (docs/architecture.md#decisions): the executor
 * (`ScriptedKernelExecutor`) only plays these steps back, so a script can be read and unit-tested
 * without a bus, a clock or a socket.
 */

/** One A2A 1.0 stream item as wire JSON, exactly as the kernel puts it in `result` (docs/behaviour/a2a.md#the-kernels-own-behaviour). */
export type KernelFrame =
  | { readonly statusUpdate: Readonly<Record<string, unknown>> }
  | { readonly artifactUpdate: Readonly<Record<string, unknown>> };

/** How the transport breaks a stream on purpose, after every frame published before it was written. */
export type KernelFault =
  /** The connection dies: the socket is destroyed without a terminal frame. */
  | { readonly kind: 'drop' }
  /** An SSE frame carrying a JSON-RPC `error` (HTTP 200, the stream had started), then the stream ends. */
  | { readonly kind: 'rpc-error'; readonly code: number; readonly message: string }
  /**
   * The stream that is open now ends cleanly, without a terminal frame, while the turn keeps running:
   * the kernel closing a send stream at a non-terminal boundary (docs/behaviour/interrupts.md#continuation). Later frames reach
   * only a subscription opened afterwards.
   */
  | { readonly kind: 'end-stream' };

export type KernelStep =
  | { readonly kind: 'frame'; readonly frame: KernelFrame }
  | { readonly kind: 'pause'; readonly ms: number }
  /** Wait while a test holds the script here (`KernelHolds`); at once otherwise. */
  | { readonly kind: 'hold' }
  /**
   * Wait, publishing nothing, until CancelTask. `answersCancel: false` models a kernel whose cancel never
   * completes, so the CancelTask call hangs (docs/behaviour/a2a.md#sdk-notes).
   */
  | { readonly kind: 'park'; readonly answersCancel: boolean }
  | { readonly kind: 'fault'; readonly fault: KernelFault }
  /** Wait, the task WORKING, for a guidance message on the task (`KernelGuidance`), then play `resume(text)`. */
  | { readonly kind: 'await-guidance'; resume(text: string): readonly KernelStep[] }
  | KernelAwaitStep;

/**
 * A value of `metadata.iac_code.input` / `pendingPermissions[]`: the executor
 * registers every `required` one it publishes, so the transport can check answers against it.
 */
export type KernelInputValue = Readonly<Record<string, unknown>> & {
  readonly inputId: string;
  readonly kind: string;
};

/** An accepted answer to one input: a permission decision (a DataPart) or a question's text. */
export type KernelAnswer =
  | { readonly kind: 'permission'; readonly inputId: string; readonly decision: 'allow_once' | 'deny' }
  | { readonly kind: 'text'; readonly inputId: string; readonly text: string };

/**
 * Wait for an answer to one of `inputIds`, then play `resume(answer)`. An answer that already arrived
 * is used at once. Otherwise, with a `parkFrame` (an INPUT_REQUIRED frame carrying the inputs), the frame
 * is published and the turn ends: the answer then comes as a new message on the task, which the SDK hands
 * to a new `execute` (docs/behaviour/a2a.md#the-kernels-own-behaviour, docs/behaviour/a2a.md#sdk-notes). Without one the turn
 * keeps running (the task stays WORKING) until a sideband answer arrives.
 */
export interface KernelAwaitStep {
  readonly kind: 'await';
  readonly inputIds: readonly string[];
  readonly parkFrame?: KernelFrame;
  resume(answer: KernelAnswer): readonly KernelStep[];
}

/** What a script may depend on: the user's text and the ids the kernel already assigned. */
export interface KernelTurnInput {
  readonly userText: string;
  readonly taskId: string;
  readonly contextId: string;
  /** `metadata.iac_code.iacCodeSessionId`, stable per context (see `kernelSessionId`). */
  readonly sessionId: string;
}

export interface KernelScript {
  readonly name: string;
  /** Answer the JSON-RPC request with this HTTP status before any stream starts (the `http-500` script). */
  readonly preStreamHttpStatus?: number;
  /** The steps after the kernel's opening frames (task SUBMITTED, SUBMITTED, WORKING). */
  steps(input: KernelTurnInput): readonly KernelStep[];
}

/** Picks the script for a turn from the text of the user message. */
export interface KernelScriptBook {
  select(userText: string): KernelScript;
}
