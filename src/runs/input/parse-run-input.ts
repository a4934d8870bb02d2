import { AguiError } from '../../common/agui-error';
import { ErrorCode } from '../../common/error-code';
import { conformsTo } from '../dto/conforms-to';
import { RunAgentInputDto } from '../dto/run-agent-input.dto';
import { parseForwardedProps } from './parse-forwarded-props';
import type { RunAgentInput } from './run-agent-input';

export type { IacCodeProps, IacCodeThinking, AlibabaCloudCredentials } from './iac-code-props';
export type { RunAgentInput, Message, ContentPart } from './run-agent-input';

type Plain = Record<string, unknown>;

/**
 * Steps 6, 8 and the input half of 9 of reference §1.2: a JSON object, a valid AG-UI 1.0 envelope, a
 * valid `forwardedProps.iacCode`, no client tools. Every failure is INVALID_INPUT with a fixed message;
 * tools share the forwarded-properties message because the original surfaces nothing more specific at
 * HTTP level (reference §1.2 step 9, §10.3).
 */
export function parseRunAgentInput(body: unknown): RunAgentInput {
  if (!isPlainObject(body)) throw new AguiError(ErrorCode.INVALID_INPUT, 'notAnObject');
  if (!conformsTo(RunAgentInputDto, body)) throw new AguiError(ErrorCode.INVALID_INPUT, 'invalidEnvelope');
  const iacCode = parseForwardedProps(body.forwardedProps);
  const tools = (body.tools ?? []) as RunAgentInput['tools'];
  if (tools.length > 0) throw new AguiError(ErrorCode.INVALID_INPUT, 'invalidForwardedProps');
  return {
    threadId: body.threadId as string,
    runId: body.runId as string,
    ...(body.protocolVersion !== undefined ? { protocolVersion: body.protocolVersion as string } : {}),
    ...(body.parentRunId !== undefined ? { parentRunId: body.parentRunId as string } : {}),
    // AG-UI 1.0 reads a null state as absent (agui-1.0-and-agentcore.md §1.4).
    ...(body.state !== undefined && body.state !== null ? { state: body.state } : {}),
    messages: body.messages as RunAgentInput['messages'],
    tools,
    context: (body.context ?? []) as RunAgentInput['context'],
    forwardedProps: { iacCode },
    ...(body.resume !== undefined ? { resume: body.resume as RunAgentInput['resume'] } : {}),
  };
}

/**
 * `forwardedProps.iacCode.preferredLanguage` read from a body that is not validated yet: the payload's
 * language already applies to the envelope's own errors (reference §1.2 step 7). Normalising it is the
 * language negotiation's job.
 */
export function preferredLanguageOf(body: unknown): string | undefined {
  if (!isPlainObject(body) || !isPlainObject(body.forwardedProps)) return undefined;
  const iacCode = body.forwardedProps.iacCode;
  if (!isPlainObject(iacCode)) return undefined;
  return typeof iacCode.preferredLanguage === 'string' ? iacCode.preferredLanguage : undefined;
}

function isPlainObject(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
