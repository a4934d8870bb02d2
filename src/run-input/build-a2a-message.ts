import type { A2aOutgoingMessage, A2aPart } from '../wire/a2a-wire';
import type { IacCodeProps, IacCodeThinking } from './iac-code-props';

export interface A2aMessageArgs {
  readonly messageId: string;
  readonly parts: A2aPart[];
  /** The thread's stored A2A context (its binding), never recomputed: the kernel knows the thread by it. */
  readonly contextId: string;
  readonly props: IacCodeProps;
  /** The resolved workspace (docs/behaviour/run-input.md#cwd step 7), not the submitted one. */
  readonly cwd: string;
  /** The run's 2-letter language (docs/behaviour/http.md#languages). */
  readonly language: string;
  /** Only on a resume or a continuation; A2A creates the task on a new run. */
  readonly taskId?: string;
}

/** The exact A2A message of docs/behaviour/a2a.md#the-message, with `llm_headers` as the published adapter 0.16.0 sends it. */
export function buildA2aMessage(args: A2aMessageArgs): A2aOutgoingMessage {
  return {
    messageId: args.messageId,
    role: 'ROLE_USER',
    parts: args.parts,
    contextId: args.contextId,
    ...(args.taskId !== undefined ? { taskId: args.taskId } : {}),
    metadata: { iac_code: iacCodeMetadata(args.props, args.cwd, args.language) },
  };
}

/** Null values are omitted; model and API key are trimmed and omitted when blank (docs/behaviour/a2a.md#the-message). */
function iacCodeMetadata(props: IacCodeProps, cwd: string, language: string): Record<string, unknown> {
  const alibaba = props.alibabaCloud;
  const entries: Record<string, unknown> = {
    cwd,
    iac_code_model: nonBlank(props.model),
    iac_code_api_key: nonBlank(props.llmApiKey),
    thinking: props.thinking ? thinkingMetadata(props.thinking) : undefined,
    user_id: props.userId,
    channel: props.channel,
    preferredLanguage: language,
    candidatePresentation: props.candidatePresentation,
    run_mode: props.runMode,
    pipeline_name: props.pipelineName,
    cleanupOnly: props.cleanupOnly,
    rosInvocationId: props.rosInvocationId,
    llm_headers: props.llmHeaders,
    alibaba_cloud_access_key_id: alibaba?.accessKeyId,
    alibaba_cloud_access_key_secret: alibaba?.accessKeySecret,
    alibaba_cloud_security_token: alibaba?.securityToken,
    alibaba_cloud_region_id: alibaba?.regionId,
  };
  // One pass, in the keys' order, with no entry arrays (it runs once per run: docs/benchmarks.md#per-run-profile).
  const metadata: Record<string, unknown> = {};
  for (const key in entries) {
    const value = entries[key];
    if (value !== undefined && value !== null) metadata[key] = value;
  }
  return metadata;
}

/** Only the keys that are set; `enabled` defaults to false, `budget` only as a positive integer. */
function thinkingMetadata(thinking: IacCodeThinking): Record<string, unknown> {
  const budget = thinking.budget;
  return {
    enabled: thinking.enabled === true,
    ...(typeof thinking.effort === 'string' ? { effort: thinking.effort } : {}),
    ...(typeof budget === 'number' && Number.isInteger(budget) && budget > 0 ? { budget } : {}),
  };
}

function nonBlank(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
