import { cancelExecution as postCancel, type ExecutionToCancel } from '../../src/client';
import type { TurnFailure } from './thread-record';

export type CancelTarget = ExecutionToCancel;

/**
 * The page's Stop: the iac-code cancel extension (docs/behaviour/cancel.md#cancel-route), through the
 * client's one implementation of it (ReattachingHttpAgent's Stop makes the same call). The run's own stream
 * then ends with `RUN_ERROR CANCELLED`.
 */
export async function cancelExecution(
  gatewayRoot: URL,
  token: string,
  target: CancelTarget,
): Promise<{ readonly status: string } | { readonly failure: TurnFailure }> {
  const answer = await postCancel(
    (url, init) => fetch(url, init),
    gatewayRoot,
    token ? { Authorization: `Bearer ${token}` } : {},
    target,
  );
  if (answer.kind === 'answered') return { status: answer.status };
  return {
    failure: { code: answer.code ?? `HTTP ${answer.httpStatus}`, message: answer.message ?? '' },
  };
}
