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
 * Reads a JSON body with the cap enforced while streaming (docs/behaviour/http.md#request-checks steps 4–5) and
 * hands it to `validate`, holding the body's charge of the budget until `validate` returns: its text and
 * parsed value are in memory until then. The route reads its own body, after the guard, so an
 * unauthenticated or oversized request is refused without being buffered; Nest's body parser is off for the
 * standalone app (main.ts) and passes these routes in a host that keeps it on (HostBodyParserShield,
 * docs/embedding.md#body-parsers). A body that stalls for `idleMs` is refused and its connection closed after
 * the answer, so a stalled client cannot hold a connection open.
 */
export async function readJsonBody<T>(
  request: Request,
  limits: BodyLimits,
  validate: (body: JsonBody) => T,
): Promise<T> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    throw new AguiError(ErrorCode.REQUEST_TOO_LARGE, limits.tooLargeKey);
  }
  const held = new HeldBytes(limits.budget);
  // What the client announced is taken at once: a body the budget cannot hold is refused before it is read.
  if (Number.isFinite(declared) && declared > 0 && !held.take(declared)) refuseBusy(request);
  try {
    // The bytes are a temporary: once decoded, only the text is referenced while it is parsed, so a large
    // body is not held twice through the parse.
    const raw = decodeUtf8(await readCapped(request, limits, held, declared), limits);
    return validate({ raw, value: parseJsonText(raw, limits) });
  } finally {
    held.giveAll();
  }
}

function decodeUtf8(bytes: Buffer, limits: BodyLimits): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AguiError(ErrorCode.INVALID_JSON, limits.invalidJsonKey);
  }
}

function parseJsonText(raw: string, limits: BodyLimits): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new AguiError(ErrorCode.INVALID_JSON, limits.invalidJsonKey);
  }
}

/**
 * The bytes of one body as they arrive. With a Content-Length (Node's parser delivers exactly that many), they are
 * copied into one buffer of that size, so a 12 MiB body costs 12 MiB, not its chunks plus their concatenation;
 * without one, the chunks are kept and joined at the end.
 */
class BodyBytes {
  private readonly whole?: Buffer;
  /** Bytes copied into `whole`. */
  private filled = 0;
  /** Chunks not copied: all of them without a Content-Length, any beyond it otherwise. */
  private readonly chunks: Buffer[] = [];
  size = 0;

  constructor(declared: number) {
    if (Number.isSafeInteger(declared) && declared > 0) this.whole = Buffer.allocUnsafe(declared);
  }

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.whole && this.chunks.length === 0 && this.filled + chunk.length <= this.whole.length) {
      this.filled += chunk.copy(this.whole, this.filled);
    } else this.chunks.push(chunk);
  }

  bytes(): Buffer {
    const copied = this.whole?.subarray(0, this.filled);
    if (this.chunks.length === 0) return copied ?? Buffer.alloc(0);
    // A body that came in one chunk (most small ones do) is used as it is: no copy.
    if (!copied && this.chunks.length === 1) return this.chunks[0];
    return Buffer.concat(copied ? [copied, ...this.chunks] : this.chunks, this.size);
  }
}

/** What one body holds of the budget: grown chunk by chunk past what it announced, given back once. */
class HeldBytes {
  private bytes = 0;
  constructor(private readonly budget: BodyBudget | undefined) {}

  /** Holds the charge of a `total`-byte body (a no-op when it holds that much already); false when the budget is spent. */
  take(total: number): boolean {
    if (!this.budget) return true;
    const charge = this.budget.chargeFor(total);
    if (charge <= this.bytes) return true;
    if (!this.budget.tryTake(charge - this.bytes)) return false;
    this.bytes = charge;
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

/** A parser the shield does not know (not body-parser's) may have consumed the stream already; use what it parsed. */
function alreadyParsed(request: Request): Buffer | undefined {
  if (!request.readableEnded || request.body === undefined) return undefined;
  const body: unknown = request.body;
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
}

function readCapped(
  request: Request,
  limits: BodyLimits,
  held: HeldBytes,
  declared: number,
): Promise<Buffer> {
  const parsed = alreadyParsed(request);
  if (parsed) {
    if (parsed.length > limits.maxBytes) throw new AguiError(ErrorCode.REQUEST_TOO_LARGE, limits.tooLargeKey);
    return Promise.resolve(parsed);
  }
  return new Promise<Buffer>((resolve, reject) => {
    const body = new BodyBytes(declared);
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
      const size = body.size + chunk.length;
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
      body.add(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(body.bytes());
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
