import type { Socket } from 'node:net';
import type { Request, Response } from 'express';
import type { MessageCatalogue } from '../../i18n/message-catalogue';
import { ErrorCode, RETRY_AFTER_SECONDS_BY_CODE } from '../error-code';
import { toErrorResponse } from './error-response';
import { refusalBody, type RefusalForm } from './refusal-body';

/**
 * How long a refused connection stays half-closed before it is destroyed. Destroying a socket with unread
 * request bytes sends a TCP reset, which can make the client drop the refusal it has not read yet; Go's
 * net/http waits the same half second for the same reason.
 */
const RESET_AVOIDANCE_MS = 500;

export interface RefusalRendering {
  readonly catalogue: MessageCatalogue;
  readonly processLanguage: string;
  readonly now: number;
}

/**
 * Writes an error that happened before the stream in the face's form: translated, with the guard's
 * challenge (with OAuth discovery when configured) kept on a 401. A response already under way is cut
 * instead: its client must not read a half stream as complete. A request whose body was not read to the
 * end (refused by the guard or the size cap before that) closes its connection: the unread bytes must not
 * be parsed as the next request on a kept-alive socket.
 */
export function writePreStreamError(
  error: unknown,
  request: Request,
  response: Response,
  form: RefusalForm,
  rendering: RefusalRendering,
): void {
  const rendered = toErrorResponse(error, request, rendering.catalogue, rendering.processLanguage);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (rendered.code === ErrorCode.UNAUTHORIZED && !response.hasHeader('WWW-Authenticate')) {
    response.setHeader('WWW-Authenticate', 'Bearer');
  }
  if (!request.complete) {
    response.setHeader('Connection', 'close');
    response.once('finish', () => delayDestroy(request.socket));
  }
  const retryAfter = RETRY_AFTER_SECONDS_BY_CODE[rendered.code];
  if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
  const { headers, body } = refusalBody(form, rendered, rendering.now);
  response.status(rendered.status).set(headers).end(body);
}

/**
 * After a `Connection: close` answer Node ends the socket and destroys it once the end is written
 * (`destroySoon`); that destroy is put off by RESET_AVOIDANCE_MS, while the unread body stays unread.
 */
function delayDestroy(socket: Socket): void {
  socket.removeListener('finish', socket.destroy);
  const destroyLater = () => setTimeout(() => socket.destroy(), RESET_AVOIDANCE_MS).unref();
  if (socket.writableFinished) destroyLater();
  else socket.once('finish', destroyLater);
}
