import type { Language } from '../i18n/message-catalogue';
import type { IacCodeProps, RunAgentInput } from './input/parse-run-input';
import type { RunPersistence } from './run-persistence';

/**
 * Which face a run came in on: it decides how errors before the stream are rendered (docs/architecture.md#decisions) and
 * labels the run's metrics. `ws` is AgentCore's WebSocket, whose refusals are RUN_ERROR frames.
 */
export type Face = 'iac-code' | 'agentcore' | 'ws';

/** A validated request on its way to admission. */
export interface RunRequest {
  readonly input: RunAgentInput;
  readonly props: IacCodeProps;
  /** The body exactly as received: the run digest is computed over it (docs/behaviour/state.md#digests). */
  readonly rawBody: string;
  readonly language: Language;
  readonly face: Face;
  /** `X-Amzn-Bedrock-AgentCore-Runtime-Session-Id`, when the request carried a well-formed one. */
  readonly agentCoreSessionId?: string;
  /**
   * `props` were filled from configuration for a generic AG-UI client (IAC_CODE_AGUI_GENERIC_CLIENTS):
   * admission then takes a resume's `rosInvocationId` from the thread instead of this run's id.
   */
  readonly hasGenericProps?: boolean;
}

/** A run that passed admission: its identities are fixed and its thread slot is held until release. */
export interface AdmittedRun {
  readonly input: RunAgentInput;
  readonly props: IacCodeProps;
  /** The body exactly as received: resume answers are digested from it as Python parsed it (docs/behaviour/state.md#digests). */
  readonly rawBody: string;
  readonly language: Language;
  readonly threadId: string;
  /** The client's runId: every event of the run carries it. */
  readonly runId: string;
  /**
   * The id the run is recorded and holds the thread's slot under: `runId`, unless a resume reused the runId
   * of the interrupted run (generic clients mode), which then runs under an id of its own.
   */
  readonly admittedRunId: string;
  readonly executionId: string;
  readonly contextId: string;
  readonly rosInvocationId: string;
  /** The resolved workspace (docs/behaviour/run-input.md#cwd step 7). */
  readonly cwd: string;
  /** The run's durable writes to its thread. */
  readonly persistence: RunPersistence;
  readonly face: Face;
  /** When admission completed (ms): time to first event is measured from here. */
  readonly admittedAtMs: number;
}
