import type { Request } from 'express';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { BodyBudget } from '../common/body-budget';
import type { MessageKey } from '../i18n/message-key';

export interface BodyLimits {
  readonly maxBytes: number;
  /** A body that delivers no byte for this long is refused with REQUEST_TIMEOUT (408). */
  readonly idleMs: number;
  readonly tooLargeKey: MessageKey;
  readonly invalidJsonKey: MessageKey;
  /** The process-wide budget of bodies in flight; a body past it is refused with SERVER_BUSY. */
  readonly budget?: BodyBudget;
}

export interface JsonBody {
  /** The exact text received: the digest of a run is computed over it (docs/behaviour/state.md#digests). */
  readonly raw: string;
  readonly value: unknown;
}

/** docs/behaviour/http.md#request-checks step 3: the media type before `;`, trimmed and lower-cased, must be application/json. */
export function assertJsonMediaType(request: Request): void {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json')
    throw new AguiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'unsupportedMediaType');
}

/**
 * Reads a JSON body with the cap enforced while streaming (docs/behaviour/http.md#request-checks steps 4–5). The route reads its
 * own body, after the guard, so an unauthenticated or oversized request is refused without being buffered;
 * Nest's body parser is off for the standalone app (main.ts). A body that stalls for `idleMs` is refused
 * and its connection closed after the answer, so a stalled client cannot hold a connection open.
 */
export async function readJsonBody(request: Request, limits: BodyLimits): Promise<JsonBody> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    throw new AguiError(ErrorCode.REQUEST_TOO_LARGE, limits.tooLargeKey);
  }
  const held = new HeldBytes(limits.budget);
  // What the client announced is taken at once: a body the budget cannot hold is refused before it is read.
  if (Number.isFinite(declared) && declared > 0 && !held.take(declared)) refuseBusy(request);
  try {
    const bytes = await readCapped(request, limits, held);
    return parseJson(bytes, limits);
  } finally {
    held.giveAll();
  }
}

function parseJson(bytes: Buffer, limits: BodyLimits): JsonBody {
  let raw: string;
  try {
    raw = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AguiError(ErrorCode.INVALID_JSON, limits.invalidJsonKey);
  }
  try {
    return { raw, value: JSON.parse(raw) as unknown };
  } catch {
    throw new AguiError(ErrorCode.INVALID_JSON, limits.invalidJsonKey);
  }
}

/** What one body holds of the budget: grown chunk by chunk past what it announced, given back once. */
class HeldBytes {
  private bytes = 0;
  constructor(private readonly budget: BodyBudget | undefined) {}

  /** Holds `total` bytes in all (a no-op when it holds that much already); false when the budget is spent. */
  take(total: number): boolean {
    if (!this.budget || total <= this.bytes) return true;
    if (!this.budget.tryTake(total - this.bytes)) return false;
    this.bytes = total;
    return true;
  }

  giveAll(): void {
    this.budget?.give(this.bytes);
    this.bytes = 0;
  }
}

/** The rest of the body will not be read: the connection cannot carry another request. */
function refuseBusy(request: Request): never {
  request.pause();
  request.res?.setHeader('Connection', 'close');
  throw new AguiError(ErrorCode.SERVER_BUSY, 'serverBusy');
}

/** A host application's body parser may have consumed the stream already; use what it parsed. */
function alreadyParsed(request: Request): Buffer | undefined {
  if (!request.readableEnded || request.body === undefined) return undefined;
  const body: unknown = request.body;
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
}

function readCapped(request: Request, limits: BodyLimits, held: HeldBytes): Promise<Buffer> {
  const parsed = alreadyParsed(request);
  if (parsed) {
    if (parsed.length > limits.maxBytes) throw new AguiError(ErrorCode.REQUEST_TOO_LARGE, limits.tooLargeKey);
    return Promise.resolve(parsed);
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      clearTimeout(idle);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onError);
    };
    const onIdle = () => {
      cleanup();
      request.pause();
      // The rest of the body will not be read: the connection cannot carry another request.
      request.res?.setHeader('Connection', 'close');
      reject(new AguiError(ErrorCode.REQUEST_TIMEOUT, 'requestTimeout'));
    };
    const idle = setTimeout(onIdle, limits.idleMs);
    const onData = (chunk: Buffer) => {
      idle.refresh();
      size += chunk.length;
      if (size > limits.maxBytes) {
        cleanup();
        request.pause();
        reject(new AguiError(ErrorCode.REQUEST_TOO_LARGE, limits.tooLargeKey));
        return;
      }
      if (!held.take(size)) {
        cleanup();
        try {
          refuseBusy(request);
        } catch (error) {
          reject(error as Error);
        }
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      // A body that came in one chunk (most do) is used as it is: no copy.
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = () => {
      cleanup();
      reject(new AguiError(ErrorCode.INVALID_JSON, limits.invalidJsonKey));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onError);
  });
}
