import type { BaseEvent } from '@ag-ui/core';
import type { Face } from '../run-input/run-request';

/**
 * Injection token of the event hooks : an array, in the order the host gave them. Hooks observe
 * runs for audit logs or billing; they cannot change or break a stream, and waiting on I/O in one never
 * delays it (see RunEventHooks). Synchronous work does: a hook runs on the event loop every stream shares.
 */
export const RUN_EVENT_HOOKS = Symbol('RUN_EVENT_HOOKS');

/** The run a hook call is about; the same object for every call of one run. */
export interface RunHookContext {
  readonly threadId: string;
  readonly runId: string;
  readonly executionId: string;
  readonly rosInvocationId: string;
  /** `iac-code` (POST /), `agentcore` (POST /invocations) or `ws` (/ws). */
  readonly face: Face;
  /**
   * Who the authenticator said the caller is (a JWT's `sub`, or a custom authenticator's principal), on
   * every face, `/ws` included; absent for an anonymous caller (the static token, or auth off).
   */
  readonly principal?: string;
  /** Unix ms when admission completed (the stream starts right after). */
  readonly startedAtMs: number;
}

/** How a run ended, once per run, after its last event. */
export interface RunOutcomeReport {
  /**
   * `success`: RUN_FINISHED; `interrupt`: RUN_FINISHED waiting for input (resumable); `error`: RUN_ERROR
   * (see `errorCode`); `disconnected`: the client left before a terminal event (docs/behaviour/cancel.md#client-disconnect).
   */
  readonly outcome: 'success' | 'interrupt' | 'error' | 'disconnected';
  /** The RUN_ERROR code (an ErrorCode value) when `outcome` is `error`. */
  readonly errorCode?: string;
  /** Unix ms of the end, from the gateway's clock. */
  readonly endedAtMs: number;
  /** AG-UI events handed to the client, the terminal one included. */
  readonly eventCount: number;
}

/**
 * An observer of runs. Both methods are optional and may be async; the gateway never awaits them on the
 * stream's path, and a throw or a rejection is logged (once per hook and run) and otherwise ignored. The
 * call itself is synchronous: keep it short and move heavy work off it (queue it, or `await` I/O), since
 * CPU spent inside `onEvent` delays every stream of the process (docs/embedding.md#event-hooks).
 */
export interface RunEventHook {
  /** Every AG-UI event of the run, in stream order, right after it was handed to the client (if still there). */
  onEvent?(event: BaseEvent, run: RunHookContext): void | PromiseLike<void>;
  /** Once per run, when its stream is over. */
  onRunEnd?(report: RunOutcomeReport, run: RunHookContext): void | PromiseLike<void>;
}
