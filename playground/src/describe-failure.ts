import type { TurnFailure } from './thread-record';

/**
 * What to show when `runAgent` fails outside the event stream. HttpAgent throws `Error("HTTP <status>: …")`
 * with `.status` and `.payload` (the parsed JSON envelope `{"error":{code,message}}` from the gateway) for
 * a refused request (docs/behaviour/agentcore.md), and an AGUIError when it refuses to send, e.g.
 * while interrupts are pending (docs/behaviour/http.md#authentication).
 */
export function describeFailure(error: unknown): TurnFailure {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const payload = fields.payload as { error?: { code?: unknown; message?: unknown } } | undefined;
  if (typeof payload?.error?.code === 'string') {
    return { code: payload.error.code, message: String(payload.error.message ?? '') };
  }
  if (typeof fields.status === 'number') {
    return {
      code: `HTTP ${fields.status}`,
      message: typeof fields.payload === 'string' ? fields.payload : String(fields.message ?? ''),
    };
  }
  return {
    code: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  };
}
