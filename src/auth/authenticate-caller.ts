import type { Logger } from '@nestjs/common';
import { MAX_ID_LENGTH } from '../common/max-id-length';
import type {
  AuthenticationDecision,
  AuthenticationRequest,
  RequestAuthenticator,
} from './request-authenticator';

/** A 401 text an authenticator gives is shown as is, up to this many characters (longer: the catalogue's). */
const MAX_REFUSAL_MESSAGE_LENGTH = 512;

/**
 * Asks the authenticator and checks what it answered, for the HTTP guard and the `/ws` handshake alike: a
 * principal that is not a non-empty string of at most MAX_ID_LENGTH characters refuses the request
 * (fail closed: it would be stored on every thread the caller opens), and a refusal message that is not
 * a short single-line string is dropped for the catalogue's.
 */
export async function authenticateCaller(
  authenticator: RequestAuthenticator,
  request: AuthenticationRequest,
  logger: Logger,
): Promise<AuthenticationDecision> {
  const decision = await authenticator.authenticate(request);
  if (decision.isAllowed) {
    const { principal } = decision as { principal?: unknown };
    if (principal === undefined) return { isAllowed: true };
    if (isBoundedText(principal, MAX_ID_LENGTH)) return { isAllowed: true, principal };
    logger.warn({ msg: 'the request authenticator returned an unusable principal: refused' });
    return { isAllowed: false };
  }
  const { challenge, message } = decision as { challenge?: unknown; message?: unknown };
  return {
    isAllowed: false,
    ...(typeof challenge === 'string' && challenge !== '' ? { challenge } : {}),
    ...(isBoundedText(message, MAX_REFUSAL_MESSAGE_LENGTH) && !hasControlCharacter(message)
      ? { message }
      : {}),
  };
}

function isBoundedText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value !== '' && [...value].length <= maxLength;
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x20 || code === 0x7f;
  });
}
