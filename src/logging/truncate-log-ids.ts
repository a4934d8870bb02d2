/** Fields of a log line that carry a client-chosen id (every log line names its ids). */
const ID_FIELDS = ['threadId', 'runId', 'parentRunId', 'executionId', 'taskId', 'messageId', 'interruptId'];

/** Characters of an id kept in a log line; enough to tell ids apart, and a line stays one screen wide. */
export const LOGGED_ID_LENGTH = 128;

/**
 * pino's `formatters.log`: an id over LOGGED_ID_LENGTH is cut, with its full length noted, so a client's
 * 1,024-character id cannot turn each of a run's log lines into kilobytes. Pure; the object is copied only
 * when something is cut.
 */
export function truncateLogIds(line: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const field of ID_FIELDS) {
    const value = line[field];
    if (typeof value !== 'string' || value.length <= LOGGED_ID_LENGTH) continue;
    copy ??= { ...line };
    copy[field] = `${value.slice(0, LOGGED_ID_LENGTH)}…(${value.length} chars)`;
  }
  return copy ?? line;
}
