import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { MAX_ID_LENGTH } from '../common/max-id-length';

export interface CancelRequest {
  readonly executionId: string;
  readonly threadId: string;
  readonly rosInvocationId: string;
  /** The authenticated caller's principal, set by the route; undefined when anonymous. */
  readonly principal?: string;
}

/**
 * docs/behaviour/cancel.md#cancel-route: threadId and rosInvocationId must be non-empty strings; extra keys are tolerated. The
 * ids are capped like a run's (docs/clients.md "Limits") before any thread is looked up.
 */
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
  if (isTooLong(threadId) || isTooLong(executionId)) {
    throw new AguiError(ErrorCode.INVALID_INPUT, 'cancelIdentityTooLong');
  }
  return { executionId, threadId, rosInvocationId };
}

function isTooLong(id: string): boolean {
  return id.length > MAX_ID_LENGTH && [...id].length > MAX_ID_LENGTH; // code points, as a run's ids
}
