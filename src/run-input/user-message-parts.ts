import type { A2aPart } from '../wire/a2a-wire';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { MessageKey } from '../i18n/message-key';
import { decodedLengthOfStrictBase64, decodeStrictBase64 } from './decode-strict-base64';
import { imageFilename } from './image-filename';
import { reencodeImage } from './reencode-image';
import type { ContentPart, RunAgentInput, UserMessage } from './run-agent-input';

export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_TOTAL_IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);

/** An image carried inline, before its bytes are checked. */
interface InlineImage {
  readonly base64: string;
  readonly mimeType: string;
  readonly filename: unknown;
}

/**
 * The A2A parts of a new run (docs/behaviour/run-input.md#user-message): the newest user message only (history is ignored), text
 * as `{text}`, inline images checked and re-encoded as `{data: {filename, bytes}, mediaType}`. Every
 * failure is INVALID_INPUT; the caller raises it inside the stream, after RUN_STARTED.
 */
export async function buildUserParts(
  messages: RunAgentInput['messages'],
): Promise<{ messageId: string; parts: A2aPart[] }> {
  const message = newestUserMessage(messages);
  if (typeof message.content === 'string')
    return { messageId: message.id, parts: [{ text: message.content }] };
  if (!Array.isArray(message.content)) throw invalid('userContentInvalid');
  const parts: A2aPart[] = [];
  let totalImageBytes = 0;
  for (const part of message.content as readonly ContentPart[]) {
    if (part.type === 'text') {
      parts.push({ text: part.text });
      continue;
    }
    const image = inlineImageOf(part);
    if (!IMAGE_MEDIA_TYPES.has(image.mimeType.toLowerCase())) throw invalid('imageMediaTypeUnsupported');
    const size = decodedLengthOfStrictBase64(image.base64);
    if (size === undefined) throw invalid('imageBase64Invalid');
    if (size > MAX_IMAGE_BYTES) throw invalid('imageTooLarge');
    totalImageBytes += size;
    if (totalImageBytes > MAX_TOTAL_IMAGE_BYTES) throw invalid('imagesTooLarge');
    const reencoded = await reencodeImage(decodeStrictBase64(image.base64) as Buffer);
    parts.push({
      data: {
        filename: imageFilename(image.filename, parts.length + 1),
        bytes: reencoded.bytes.toString('base64'),
      },
      mediaType: reencoded.mediaType,
    });
  }
  return { messageId: message.id, parts };
}

function newestUserMessage(messages: RunAgentInput['messages']): UserMessage {
  const message = findNewestUserMessage(messages);
  if (message === undefined) throw invalid('userMessageRequired');
  return message;
}

/** The message a new run sends to the kernel: the newest with `role: "user"`, walking back from the end. */
export function findNewestUserMessage(messages: RunAgentInput['messages']): UserMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message.role === 'user') return message;
  }
  return undefined;
}

/**
 * An image part with inline data, or the 0.0.x `binary` part of an image type with `data` (docs/behaviour/run-input.md#user-message); a part naming remote or provider-held bytes is refused, and so is every other kind.
 */
function inlineImageOf(part: ContentPart): InlineImage {
  if (part.type === 'image') {
    if (part.source.type !== 'data') throw invalid('remoteMediaUnsupported');
    return { base64: part.source.value, mimeType: part.source.mimeType, filename: filenameOf(part.metadata) };
  }
  if (part.type === 'binary' && part.mimeType.toLowerCase().startsWith('image/')) {
    if (part.data === undefined) throw invalid('remoteMediaUnsupported');
    return { base64: part.data, mimeType: part.mimeType, filename: part.filename };
  }
  throw invalid('onlyTextAndImages');
}

function filenameOf(metadata: unknown): unknown {
  return typeof metadata === 'object' && metadata !== null
    ? (metadata as { filename?: unknown }).filename
    : undefined;
}

function invalid(key: MessageKey): AguiError {
  return new AguiError(ErrorCode.INVALID_INPUT, key);
}
