import type { Language } from '../i18n/message-catalogue';
import type { PythonJsonValue } from '../wire/python-json-value';
import type { IacCodeProps, RunAgentInput } from './parse-run-input';

/**
 * Which face a run came in on: it decides how errors before the stream are rendered (docs/architecture.md#decisions) and
 * labels the run's metrics. `ws` is AgentCore's WebSocket, whose refusals are RUN_ERROR frames.
 */
export type Face = 'iac-code' | 'agentcore' | 'ws';

/** A validated request on its way to admission. */
export interface RunRequest {
  readonly input: RunAgentInput;
  readonly props: IacCodeProps;
  /**
   * The run digest of the body exactly as received (docs/behaviour/state.md#digests), computed while the body's
   * charge of the budget is held: the raw text is not kept past validation.
   */
  readonly digest: string;
  /** `resume` as Python parsed it (a client's `1.0` stays a float): the answers' digests are computed from it. */
  readonly pythonResume?: PythonJsonValue;
  readonly language: Language;
  readonly face: Face;
  /** `X-Amzn-Bedrock-AgentCore-Runtime-Session-Id`, when the request carried a well-formed one. */
  readonly agentCoreSessionId?: string;
  /** Who the authenticator said the caller is; undefined when anonymous (docs/behaviour/state.md#caller-binding). */
  readonly principal?: string;
  /**
   * `props` were filled from configuration for a generic AG-UI client (IAC_CODE_AGUI_GENERIC_CLIENTS):
   * admission then takes a resume's `rosInvocationId` from the thread instead of this run's id.
   */
  readonly hasGenericProps?: boolean;
}
