import { ErrorCode } from './error-code';
import type { MessageKey } from '../i18n/message-key';

/**
 * The only error type the service throws on purpose. It carries a code and a catalogue key, never a
 * status or a rendered text: the face that renders it picks the status (HTTP_STATUS_BY_CODE) and the
 * language (i18n), as Twenty's exception/filter split does.
 */
export class AguiError extends Error {
  /**
   * A text shown instead of the catalogue's, only where a host's part gave one for its caller (a
   * custom authenticator's 401 message); never built from request data by the gateway itself.
   */
  readonly text?: string;

  constructor(
    readonly code: ErrorCode,
    readonly messageKey: MessageKey,
    options?: { cause?: unknown; text?: string },
  ) {
    super(`${code}: ${messageKey}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AguiError';
    if (options?.text !== undefined) this.text = options.text;
  }
}

export function isAguiError(value: unknown): value is AguiError {
  return value instanceof AguiError;
}
