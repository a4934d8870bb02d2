/**
 * The one error-code enum of the service (docs/architecture.md#decisions). The same code is used on every face;
 * only the rendering differs (JSON envelope, SSE RUN_ERROR frame, WebSocket frame).
 */
export enum ErrorCode {
  UNAUTHORIZED = 'UNAUTHORIZED',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  REQUEST_TOO_LARGE = 'REQUEST_TOO_LARGE',
  REQUEST_TIMEOUT = 'REQUEST_TIMEOUT',
  INVALID_JSON = 'INVALID_JSON',
  INVALID_INPUT = 'INVALID_INPUT',
  DUPLICATE_RUN_ID = 'DUPLICATE_RUN_ID',
  RUN_ID_CONFLICT = 'RUN_ID_CONFLICT',
  THREAD_BUSY = 'THREAD_BUSY',
  THREAD_BINDING_CONFLICT = 'THREAD_BINDING_CONFLICT',
  RESUME_REQUIRED = 'RESUME_REQUIRED',
  EXECUTION_LOST = 'EXECUTION_LOST',
  STATE_UNAVAILABLE = 'STATE_UNAVAILABLE',
  SERVICE_DRAINING = 'SERVICE_DRAINING',
  /** The process-wide budget of request bodies in flight is spent: retry shortly. */
  SERVER_BUSY = 'SERVER_BUSY',
  EXECUTION_NOT_FOUND = 'EXECUTION_NOT_FOUND',
  EVENTS_EXPIRED = 'EVENTS_EXPIRED',
  A2A_UNAVAILABLE = 'A2A_UNAVAILABLE',
  INTERNAL_ERROR = 'INTERNAL_ERROR',
  NOT_FOUND = 'NOT_FOUND',
  METHOD_NOT_ALLOWED = 'METHOD_NOT_ALLOWED',
  HEADERS_TOO_LARGE = 'HEADERS_TOO_LARGE',
  // In-stream only (HTTP 200, last frame of the stream).
  INCOMPLETE_RESUME = 'INCOMPLETE_RESUME',
  UNKNOWN_INTERRUPT = 'UNKNOWN_INTERRUPT',
  RESUME_PAYLOAD_INVALID = 'RESUME_PAYLOAD_INVALID',
  RESUME_ALREADY_APPLIED = 'RESUME_ALREADY_APPLIED',
  EXECUTION_EXPIRED = 'EXECUTION_EXPIRED',
  STATE_PERSISTENCE_FAILED = 'STATE_PERSISTENCE_FAILED',
  SESSION_BACKUP_NOT_READY = 'SESSION_BACKUP_NOT_READY',
  A2A_PROTOCOL_ERROR = 'A2A_PROTOCOL_ERROR',
  A2A_EXECUTION_FAILED = 'A2A_EXECUTION_FAILED',
  CANCELLED = 'CANCELLED',
  /** Another replica took the thread's lease: this run stopped without acting on the kernel. */
  THREAD_TAKEN_OVER = 'THREAD_TAKEN_OVER',
  /** The run's lease went with the thread's whole document (a Redis restart without AOF, an eviction). */
  STATE_LOST = 'STATE_LOST',
  /** Redis mode: the replica that ran the run is gone (its run-log lease expired); its readers elsewhere end. */
  RUN_OWNER_LOST = 'RUN_OWNER_LOST',
}

/**
 * HTTP status per code when the error happens before the stream starts. Exhaustive on purpose: a new
 * code does not compile until it has a status. In-stream-only codes carry the status they would get if a
 * face ever had to render them before the stream (they never are today).
 */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  [ErrorCode.UNAUTHORIZED]: 401,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorCode.REQUEST_TOO_LARGE]: 413,
  [ErrorCode.REQUEST_TIMEOUT]: 408,
  [ErrorCode.INVALID_JSON]: 400,
  [ErrorCode.INVALID_INPUT]: 400,
  [ErrorCode.DUPLICATE_RUN_ID]: 409,
  [ErrorCode.RUN_ID_CONFLICT]: 409,
  [ErrorCode.THREAD_BUSY]: 409,
  [ErrorCode.THREAD_BINDING_CONFLICT]: 409,
  [ErrorCode.RESUME_REQUIRED]: 409,
  [ErrorCode.EXECUTION_LOST]: 409,
  [ErrorCode.STATE_UNAVAILABLE]: 503,
  [ErrorCode.SERVICE_DRAINING]: 503,
  [ErrorCode.SERVER_BUSY]: 503,
  [ErrorCode.EXECUTION_NOT_FOUND]: 404,
  [ErrorCode.EVENTS_EXPIRED]: 410,
  [ErrorCode.A2A_UNAVAILABLE]: 502,
  [ErrorCode.INTERNAL_ERROR]: 500,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.METHOD_NOT_ALLOWED]: 405,
  [ErrorCode.HEADERS_TOO_LARGE]: 431,
  [ErrorCode.INCOMPLETE_RESUME]: 400,
  [ErrorCode.UNKNOWN_INTERRUPT]: 400,
  [ErrorCode.RESUME_PAYLOAD_INVALID]: 400,
  [ErrorCode.RESUME_ALREADY_APPLIED]: 409,
  [ErrorCode.EXECUTION_EXPIRED]: 409,
  [ErrorCode.STATE_PERSISTENCE_FAILED]: 503,
  [ErrorCode.SESSION_BACKUP_NOT_READY]: 503,
  [ErrorCode.A2A_PROTOCOL_ERROR]: 502,
  [ErrorCode.A2A_EXECUTION_FAILED]: 502,
  [ErrorCode.CANCELLED]: 409,
  [ErrorCode.THREAD_TAKEN_OVER]: 409,
  [ErrorCode.STATE_LOST]: 503,
  [ErrorCode.RUN_OWNER_LOST]: 503,
};

/**
 * `Retry-After` (seconds) of the refusals a client should simply retry soon: the process's body budget is
 * spent, the state store did not answer (docs/behaviour/http.md#error-envelope). Not THREAD_BUSY: a thread
 * is busy until its turn ends, which a timer cannot tell.
 */
export const RETRY_AFTER_SECONDS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.SERVER_BUSY]: 1,
  [ErrorCode.STATE_UNAVAILABLE]: 1,
};
