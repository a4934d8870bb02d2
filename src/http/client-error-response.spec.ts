import { MessageCatalogue } from '../i18n/message-catalogue';
import { clientErrorResponse, type ClientError } from './client-error-response';

const rendering = { catalogue: new MessageCatalogue(), language: 'en' as const, now: 1_700_000_000_000 };

function parserError(code: string, rawPacket?: string): ClientError {
  return Object.assign(new Error(code), {
    code,
    ...(rawPacket ? { rawPacket: Buffer.from(rawPacket, 'latin1') } : {}),
  });
}

function split(response: string): { head: string; body: string } {
  const [head, ...rest] = response.split('\r\n\r\n');
  return { head, body: rest.join('\r\n\r\n') };
}

describe('clientErrorResponse', () => {
  it.each([
    { code: 'HPE_HEADER_OVERFLOW', status: 431, errorCode: 'HEADERS_TOO_LARGE' },
    { code: 'HPE_CHUNK_EXTENSIONS_OVERFLOW', status: 413, errorCode: 'REQUEST_TOO_LARGE' },
    { code: 'HPE_INVALID_METHOD', status: 400, errorCode: 'INVALID_INPUT' },
  ])(
    'answers $code with $status $errorCode in the JSON envelope, and closes',
    ({ code, status, errorCode }) => {
      const { head, body } = split(
        clientErrorResponse(parserError(code, 'POST /?a=1 HTTP/1.1\r\nX: y'), rendering) ?? '',
      );
      expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} \\w`));
      expect(head).toContain('\r\nConnection: close');
      expect(head).toContain(`\r\nContent-Length: ${Buffer.byteLength(body)}`);
      expect(JSON.parse(body)).toEqual({ error: { code: errorCode, message: expect.any(String) } });
    },
  );

  it('answers on /invocations with one RUN_ERROR frame', () => {
    const { head, body } = split(
      clientErrorResponse(parserError('HPE_HEADER_OVERFLOW', 'POST /invocations HTTP/1.1\r\n'), rendering) ??
        '',
    );
    expect(head).toContain('\r\nContent-Type: text/event-stream');
    expect(body).toBe(
      `data: {"type":"RUN_ERROR","code":"HEADERS_TOO_LARGE","message":"The request headers are too large.","timestamp":${rendering.now}}\n\n`,
    );
  });

  it('falls back to the JSON envelope when the bytes no longer hold the request line', () => {
    const { body } = split(
      clientErrorResponse(parserError('HPE_HEADER_OVERFLOW', 'aaaaaaaa'), rendering) ?? '',
    );
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'HEADERS_TOO_LARGE' } });
  });

  it('answers a request Node timed out with 408 REQUEST_TIMEOUT in the envelope, or on the parsed path its face', () => {
    const envelope = split(clientErrorResponse(parserError('ERR_HTTP_REQUEST_TIMEOUT'), rendering) ?? '');
    expect(envelope.head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(envelope.head).toContain('\r\nConnection: close');
    expect(JSON.parse(envelope.body)).toEqual({
      error: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time.' },
    });
    const invocation = split(
      clientErrorResponse(parserError('ERR_HTTP_REQUEST_TIMEOUT'), {
        ...rendering,
        parsedPath: '/invocations?x=1',
      }) ?? '',
    );
    expect(invocation.head).toContain('\r\nContent-Type: text/event-stream');
    expect(invocation.body).toContain('"code":"REQUEST_TIMEOUT"');
  });

  it('leaves a connection the client dropped to the caller', () => {
    expect(clientErrorResponse(parserError('ECONNRESET'), rendering)).toBeUndefined();
  });
});
