/**
 * Where JSON log lines go: a pino destination stream, or null for standard output. Tests override it to
 * capture the lines (test/support/start-gateway.ts).
 */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');
