import type { TurnFailure } from './thread-record';

export interface CancelTarget {
  readonly executionId: string;
  readonly threadId: string;
  readonly rosInvocationId: string;
}

/**
 * The iac-code cancel extension (docs/behaviour/cancel.md#cancel-route): `POST extensions/iac-code/v1/executions/<id>/cancel`
 * with `{threadId, rosInvocationId}`. The run's own stream then ends with `RUN_ERROR CANCELLED`.
 */
export async function cancelExecution(
  gatewayRoot: URL,
  token: string,
  target: CancelTarget,
): Promise<{ readonly status: string } | { readonly failure: TurnFailure }> {
  const url = new URL(
    `extensions/iac-code/v1/executions/${encodeURIComponent(target.executionId)}/cancel`,
    gatewayRoot,
  );
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ threadId: target.threadId, rosInvocationId: target.rosInvocationId }),
  });
  const body: unknown = await response.json().catch(() => undefined);
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (response.ok) return { status: String(fields.status ?? response.status) };
  const error = (fields.error ?? {}) as Record<string, unknown>;
  return {
    failure: {
      code: String(error.code ?? `HTTP ${response.status}`),
      message: String(error.message ?? response.statusText),
    },
  };
}
