import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';

export interface CancelRequest {
  readonly executionId: string;
  readonly threadId: string;
  readonly rosInvocationId: string;
}

/** Reference §1.4: threadId and rosInvocationId must be non-empty strings; extra keys are tolerated. */
export function parseCancelRequest(executionId: string, body: unknown): CancelRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AguiError(ErrorCode.INVALID_INPUT, 'cancelNotAnObject');
  }
  const { threadId, rosInvocationId } = body as Record<string, unknown>;
  if (
    typeof threadId !== 'string' ||
    threadId === '' ||
    typeof rosInvocationId !== 'string' ||
    rosInvocationId === ''
  ) {
    throw new AguiError(ErrorCode.INVALID_INPUT, 'cancelIdentityRequired');
  }
  return { executionId, threadId, rosInvocationId };
}
