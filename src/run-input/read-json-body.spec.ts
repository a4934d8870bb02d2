import { PassThrough } from 'node:stream';
import type { Request } from 'express';
import { BodyBudget } from '../common/body-budget';
import { ErrorCode } from '../common/error-code';
import { readJsonBody, type BodyLimits, type JsonBody } from './read-json-body';

const asRead = (body: JsonBody) => body;

/** A request whose body arrives in the given chunks, with a Content-Length when `declared` is given. */
function requestOf(chunks: string[], declared?: number): Request {
  const stream = new PassThrough();
  const request = Object.assign(stream, {
    headers: declared === undefined ? {} : { 'content-length': String(declared) },
  }) as unknown as Request;
  setImmediate(() => {
    for (const chunk of chunks) stream.write(Buffer.from(chunk, 'utf8'));
    stream.end();
  });
  return request;
}

const limits = (budget?: BodyBudget): BodyLimits => ({
  maxBytes: 1024,
  idleMs: 60_000,
  tooLargeKey: 'requestTooLarge',
  invalidJsonKey: 'invalidJson',
  ...(budget ? { budget } : {}),
});

describe('readJsonBody', () => {
  const text = JSON.stringify({ threadId: 't', note: 'ü€😀' });
  const pieces = [text.slice(0, 5), text.slice(5, 17), text.slice(17)];

  it.each([
    ['announced, in chunks', pieces, Buffer.byteLength(text)],
    ['announced, in one chunk', [text], Buffer.byteLength(text)],
    ['not announced, in chunks', pieces, undefined],
    ['not announced, in one chunk', [text], undefined],
  ])('reads a body %s exactly', async (_name, chunks, declared) => {
    await expect(readJsonBody(requestOf(chunks, declared), limits(), asRead)).resolves.toEqual({
      raw: text,
      value: JSON.parse(text),
    });
  });

  it('refuses a body announced past the budget before reading it, and gives back what it took', async () => {
    const budget = new BodyBudget({ bodyBudgetBytes: 100 });
    budget.tryTake(90);
    await expect(
      readJsonBody(requestOf([text], Buffer.byteLength(text)), limits(budget), asRead),
    ).rejects.toMatchObject({
      code: ErrorCode.SERVER_BUSY,
    });
    expect(budget.bytesInFlight).toBe(90);
  });

  it('counts an unannounced body against the budget as it arrives, and frees it once parsed', async () => {
    const small = new BodyBudget({ bodyBudgetBytes: 10 });
    await expect(readJsonBody(requestOf(pieces), limits(small), asRead)).rejects.toMatchObject({
      code: ErrorCode.SERVER_BUSY,
    });
    expect(small.bytesInFlight).toBe(0);
    const roomy = new BodyBudget({ bodyBudgetBytes: 1024 });
    await readJsonBody(requestOf(pieces), limits(roomy), asRead);
    expect(roomy.bytesInFlight).toBe(0);
  });

  it('holds three times the body until it is validated, and gives it back when validation fails', async () => {
    const budget = new BodyBudget({ bodyBudgetBytes: 1024 });
    const size = Buffer.byteLength(text);
    const heldWhileValidating: number[] = [];
    const validated = await readJsonBody(requestOf([text], size), limits(budget), (body) => {
      heldWhileValidating.push(budget.bytesInFlight);
      return body.value;
    });
    expect(validated).toEqual(JSON.parse(text));
    expect(heldWhileValidating).toEqual([3 * size]);
    expect(budget.bytesInFlight).toBe(0);

    await expect(
      readJsonBody(requestOf(pieces), limits(budget), () => {
        heldWhileValidating.push(budget.bytesInFlight);
        throw new Error('invalid input');
      }),
    ).rejects.toThrow('invalid input');
    expect(heldWhileValidating).toEqual([3 * size, 3 * size]);
    expect(budget.bytesInFlight).toBe(0);
  });

  it('refuses bytes that are not UTF-8 as INVALID_JSON', async () => {
    const stream = new PassThrough();
    const request = Object.assign(stream, { headers: {} }) as unknown as Request;
    setImmediate(() => stream.end(Buffer.from([0x7b, 0xff, 0x7d])));
    await expect(readJsonBody(request, limits(), asRead)).rejects.toMatchObject({
      code: ErrorCode.INVALID_JSON,
    });
  });
});
