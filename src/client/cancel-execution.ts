/** An execution to cancel: what the run's `iac-code.session.v1` event names, and its thread. */
export interface ExecutionToCancel {
  readonly executionId: string;
  readonly threadId: string;
  readonly rosInvocationId: string;
}

/**
 * The gateway's answer to a cancel: `cancelled` / `already_terminal` (docs/behaviour/cancel.md#cancel-route),
 * or its refusal, with the envelope's code and message where the body had them.
 */
export type CancelAnswer =
  | { readonly kind: 'answered'; readonly status: string }
  | {
      readonly kind: 'refused';
      readonly httpStatus: number;
      readonly code?: string;
      readonly message?: string;
    };

/**
 * POSTs the iac-code cancel extension, `extensions/iac-code/v1/executions/<id>/cancel` with
 * `{threadId, rosInvocationId}`, under `gatewayRoot` with `headers` (the agent's: its bearer token).
 * Rejects only when the request itself fails (network, abort).
 */
export async function cancelExecution(
  fetchFn: (url: string, init: RequestInit) => Promise<Response>,
  gatewayRoot: string | URL,
  headers: Record<string, string>,
  target: ExecutionToCancel,
): Promise<CancelAnswer> {
  const url = new URL(
    `extensions/iac-code/v1/executions/${encodeURIComponent(target.executionId)}/cancel`,
    gatewayRoot,
  );
  const response = await fetchFn(url.toString(), {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ threadId: target.threadId, rosInvocationId: target.rosInvocationId }),
  });
  const body: unknown = await response.json().catch(() => undefined);
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (response.ok) return { kind: 'answered', status: String(fields.status ?? response.status) };
  const error = (typeof fields.error === 'object' && fields.error !== null ? fields.error : {}) as Record<
    string,
    unknown
  >;
  return {
    kind: 'refused',
    httpStatus: response.status,
    ...(typeof error.code === 'string' ? { code: error.code } : {}),
    ...(typeof error.message === 'string' ? { message: error.message } : {}),
  };
}
