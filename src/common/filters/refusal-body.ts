import type { ErrorCode } from '../error-code';
import { runErrorEvent } from '../run-error-event';

/** How a face renders a refusal before its stream: the iac-code JSON envelope, or AgentCore's SSE frame. */
export type RefusalForm = 'json-envelope' | 'sse-run-error';

export interface RefusalBody {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * The one rendering of a refusal (docs/behaviour/http.md#error-envelope): `{"error":{"code","message"}}` on the iac-code face,
 * one `data: {"type":"RUN_ERROR",…}` frame on `/invocations`. The filters, the route fallback and the
 * malformed-request answer all write this, so no refusal has a shape of its own.
 */
export function refusalBody(
  form: RefusalForm,
  error: { readonly code: ErrorCode; readonly message: string },
  now: number,
): RefusalBody {
  if (form === 'sse-run-error') {
    const frame = JSON.stringify(runErrorEvent(error.code, error.message, now));
    return {
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
      },
      body: `data: ${frame}\n\n`,
    };
  }
  return {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ error: { code: error.code, message: error.message } }),
  };
}

/**
 * The form of a path no controller answered (an unknown route, a wrong method, a request Node refused
 * before routing): `/invocations` is the AgentCore face, everything else the iac-code face.
 */
export function refusalFormOfPath(path: string): RefusalForm {
  return /^\/invocations\/?$/.test(path) ? 'sse-run-error' : 'json-envelope';
}
