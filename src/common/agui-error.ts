import { ErrorCode } from './error-code';
import type { MessageKey } from '../i18n/message-key';

/**
 * The only error type the service throws on purpose. It carries a code and a catalogue key, never a
 * status or a rendered text: the face that renders it picks the status (HTTP_STATUS_BY_CODE) and the
 * language (i18n), as Twenty's exception/filter split does.
 */
export class AguiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly messageKey: MessageKey,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${messageKey}`, options);
    this.name = 'AguiError';
  }
}

export function isAguiError(value: unknown): value is AguiError {
  return value instanceof AguiError;
}
