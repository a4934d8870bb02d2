import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { conformsTo } from './dto/conforms-to';
import { RUN_AGENT_INPUT_KEYS, RunAgentInputDto } from './dto/run-agent-input.dto';
import type { MessageKey } from '../i18n/message-key';
import { parseForwardedProps } from './parse-forwarded-props';
import { findNewestUserMessage } from './user-message-parts';
import type { RunAgentInput } from './run-agent-input';
import { isWireObject } from '../wire/wire-value';

export type { IacCodeProps, IacCodeThinking, AlibabaCloudCredentials } from './iac-code-props';
export type { RunAgentInput, Message, ContentPart } from './run-agent-input';

type Plain = Record<string, unknown>;

export interface ParseRunInputOptions {
  /**
   * The message for non-empty `tools`. The original surfaces only the forwarded-properties message at
   * HTTP level (docs/behaviour/http.md#request-checks step 9, docs/behaviour/README.md), which strict mode keeps; generic-clients mode says what
   * is wrong, since its clients (CopilotKit apps with frontend tools) send tools without knowing better.
   */
  readonly toolsRefusalKey?: Extract<MessageKey, 'invalidForwardedProps' | 'toolsUnsupported'>;
}

/**
 * Steps 6, 8 and the input half of 9 of docs/behaviour/http.md#request-checks: a JSON object, a valid AG-UI 1.0 envelope, a
 * valid `forwardedProps.iacCode`, no client tools. Every failure is INVALID_INPUT with a fixed message.
 * Unknown top-level keys are ignored, as AG-UI 1.0 and the published adapter do; everything below the
 * top level stays strict.
 */
export function parseRunAgentInput(
  body: unknown,
  { toolsRefusalKey = 'invalidForwardedProps' }: ParseRunInputOptions = {},
): RunAgentInput {
  if (!isWireObject(body)) throw new AguiError(ErrorCode.INVALID_INPUT, 'notAnObject');
  const known = knownTopLevelKeys(body);
  if (!conformsTo(RunAgentInputDto, known)) throw new AguiError(ErrorCode.INVALID_INPUT, 'invalidEnvelope');
  const iacCode = parseForwardedProps(known.forwardedProps);
  const tools = (known.tools ?? []) as RunAgentInput['tools'];
  if (tools.length > 0) throw new AguiError(ErrorCode.INVALID_INPUT, toolsRefusalKey);
  if (known.resume === undefined) refuseEmptyUserMessage(known.messages as RunAgentInput['messages']);
  return {
    threadId: known.threadId as string,
    runId: known.runId as string,
    ...(known.protocolVersion !== undefined ? { protocolVersion: known.protocolVersion as string } : {}),
    ...(known.parentRunId !== undefined ? { parentRunId: known.parentRunId as string } : {}),
    // AG-UI 1.0 reads a null state as absent (docs/behaviour/run-input.md#envelope).
    ...(known.state !== undefined && known.state !== null ? { state: known.state } : {}),
    messages: known.messages as RunAgentInput['messages'],
    tools,
    context: (known.context ?? []) as RunAgentInput['context'],
    forwardedProps: { iacCode },
    ...(known.resume !== undefined ? { resume: known.resume as RunAgentInput['resume'] } : {}),
  };
}

/**
 * `forwardedProps.iacCode.preferredLanguage` read from a body that is not validated yet: the payload's
 * language already applies to the envelope's own errors (docs/behaviour/http.md#request-checks step 7). Normalising it is the
 * language negotiation's job.
 */
export function preferredLanguageOf(body: unknown): string | undefined {
  if (!isWireObject(body) || !isWireObject(body.forwardedProps)) return undefined;
  const iacCode = body.forwardedProps.iacCode;
  if (!isWireObject(iacCode)) return undefined;
  return typeof iacCode.preferredLanguage === 'string' ? iacCode.preferredLanguage : undefined;
}

/**
 * The kernel refuses a message without parts or without an id (-32602), which a client would only see as
 * an unavailable service: refused here, before any kernel call (docs/behaviour/run-input.md#user-message).
 * Resumes ignore `messages`, so they are not checked.
 */
function refuseEmptyUserMessage(messages: RunAgentInput['messages']): void {
  const message = findNewestUserMessage(messages);
  if (message === undefined) return;
  if (message.id === '') throw new AguiError(ErrorCode.INVALID_INPUT, 'userMessageIdEmpty');
  if (Array.isArray(message.content) && message.content.length === 0)
    throw new AguiError(ErrorCode.INVALID_INPUT, 'userContentEmpty');
}

/** Own keys only: `__proto__` and inherited names (`toString`) are dropped like any other unknown key. */
function knownTopLevelKeys(body: Plain): Plain {
  return Object.fromEntries(Object.entries(body).filter(([key]) => RUN_AGENT_INPUT_KEYS.has(key)));
}
