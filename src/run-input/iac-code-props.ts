/**
 * `forwardedProps.iacCode` after validation (docs/behaviour/run-input.md#forwardedpropsiaccode: the original's documented fields and those of 0.16.0). Optional keys stay absent
 * when the client left them out, and nullable ones may be null; the two defaults of the original are
 * applied: `cleanupOnly` and `thinking.enabled` are always booleans.
 */
export interface IacCodeProps {
  readonly schemaVersion: 1;
  readonly rosInvocationId: string;
  /** As submitted; `resolveCwd` gives the path that is bound and forwarded (docs/behaviour/run-input.md#cwd). */
  readonly cwd: string;
  readonly model?: string | null;
  readonly llmApiKey?: string | null;
  /** Headers for the LLM provider, forwarded as `llm_headers` (even `{}`); secret: never stored or logged. */
  readonly llmHeaders?: Readonly<Record<string, string>> | null;
  readonly thinking?: IacCodeThinking | null;
  readonly userId?: string | null;
  readonly channel?: string | null;
  readonly preferredLanguage?: string | null;
  readonly candidatePresentation?: 'standard' | 'rich' | null;
  readonly runMode?: 'normal' | 'pipeline' | null;
  readonly pipelineName?: string | null;
  readonly cleanupOnly: boolean;
  /**
   * `true`: a guidance run (docs/behaviour/guidance-runs.md): the newest user message is sent into the
   * thread's live Pipeline task instead of starting a turn. Absent when not sent; never forwarded.
   */
  readonly activeGuidance?: boolean;
  readonly alibabaCloud?: AlibabaCloudCredentials | null;
}

export interface IacCodeThinking {
  readonly enabled: boolean;
  readonly effort?: string | null;
  /** A positive integer when set. */
  readonly budget?: number | null;
}

/** Request-local Alibaba Cloud credentials: forwarded to A2A only, never stored or logged (docs/behaviour/state.md#never-stored). */
export interface AlibabaCloudCredentials {
  readonly accessKeyId?: string | null;
  readonly accessKeySecret?: string | null;
  readonly securityToken?: string | null;
  readonly regionId?: string | null;
}
