import { createHash } from 'node:crypto';

/**
 * The A2A context id of a thread: `agui-` + the first 40 hex digits of sha256(threadId) — the Python
 * adapter's `_context_id`, so a thread keeps its A2A context across both implementations (docs/behaviour/state.md#the-document).
 */
export function contextIdForThread(threadId: string): string {
  return `agui-${createHash('sha256').update(threadId, 'utf8').digest('hex').slice(0, 40)}`;
}
