import { STATUS_CODES } from 'node:http';
import { ErrorCode, HTTP_STATUS_BY_CODE } from '../common/error-code';
import { refusalBody, refusalFormOfPath } from '../common/filters/refusal-body';
import type { Language, MessageCatalogue } from '../i18n/message-catalogue';
import type { MessageKey } from '../i18n/message-key';

/** The parser errors Node reports through the server's `clientError` event, with what they carry. */
export type ClientError = Error & { readonly code?: string; readonly rawPacket?: Buffer };

export interface ClientErrorRendering {
  readonly catalogue: MessageCatalogue;
  readonly language: Language;
  readonly now: number;
  /**
   * The path of the request Node had already parsed when the error came (a request timeout while its body
   * was arriving); a parser error carries its own bytes instead.
   */
  readonly parsedPath?: string;
}

const REQUEST_LINE = /^[A-Z]+ (\S+) HTTP\/1\.[01]\r?\n/;

/**
 * The raw HTTP response for a request Node refused before any route saw it (a header section over the
 * limit, a malformed request, headers or a whole request not received within the server's deadlines), in
 * the face's form of its path, with `Connection: close`: the rest of the bytes cannot be trusted as a next
 * request. Undefined for a connection the client already dropped.
 */
export function clientErrorResponse(error: ClientError, rendering: ClientErrorRendering): string | undefined {
  const refusal = refusalOf(error.code);
  if (!refusal) return undefined;
  const status = HTTP_STATUS_BY_CODE[refusal.code];
  const message = rendering.catalogue.render(refusal.key, rendering.language);
  const { headers, body } = refusalBody(
    refusalFormOfPath(rendering.parsedPath?.split('?')[0] ?? pathOf(error.rawPacket)),
    { code: refusal.code, message },
    rendering.now,
  );
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

function refusalOf(code: string | undefined): { code: ErrorCode; key: MessageKey } | undefined {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { code: ErrorCode.REQUEST_TIMEOUT, key: 'requestNotReceived' };
  if (code === 'HPE_HEADER_OVERFLOW') return { code: ErrorCode.HEADERS_TOO_LARGE, key: 'headersTooLarge' };
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return { code: ErrorCode.REQUEST_TOO_LARGE, key: 'requestTooLarge' };
  if (code?.startsWith('HPE_')) return { code: ErrorCode.INVALID_INPUT, key: 'malformedRequest' };
  return undefined;
}

/**
 * The request path, when the bytes Node was parsing still hold the request line (they do for a request
 * that arrived in one piece); else `/`, i.e. the JSON envelope.
 */
function pathOf(rawPacket: Buffer | undefined): string {
  const line = REQUEST_LINE.exec(rawPacket?.toString('latin1', 0, 8192) ?? '');
  return line ? line[1].split('?')[0] : '/';
}
