import sharp from 'sharp';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import type { ContentPart, Message } from './run-agent-input';
import { buildUserParts, MAX_IMAGE_BYTES } from './user-message-parts';

const MiB = 1024 * 1024;
let png: Buffer;
let webp: Buffer;

beforeAll(async () => {
  const red = { create: { width: 3, height: 2, channels: 3 as const, background: '#ff0000' } };
  png = await sharp(red).png().toBuffer();
  webp = await sharp(red).webp().toBuffer();
});

const user = (content: string | ContentPart[], id = 'u1'): Message => ({ id, role: 'user', content });
const dataImage = (bytes: Buffer | string, mimeType = 'image/png', metadata?: unknown): ContentPart => ({
  type: 'image',
  source: { type: 'data', value: typeof bytes === 'string' ? bytes : bytes.toString('base64'), mimeType },
  ...(metadata === undefined ? {} : { metadata }),
});
const imagePart = (filename: string, bytes: Buffer) => ({
  data: { filename, bytes: bytes.toString('base64') },
  mediaType: 'image/png',
});

async function failureKey(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AguiError && error.code === ErrorCode.INVALID_INPUT) return error.messageKey;
    throw error;
  }
  throw new Error('expected the message to be refused');
}

describe('buildUserParts: accepted content', () => {
  it('uses only the newest user message, whatever follows it', async () => {
    const messages: Message[] = [
      user('old', 'u1'),
      { id: 'a1', role: 'assistant', content: 'reply' },
      user('new', 'u2'),
      { id: 'a2', role: 'assistant', toolCalls: [] },
      { id: 's1', role: 'system', content: 'ignored' },
    ];
    await expect(buildUserParts(messages)).resolves.toEqual({ messageId: 'u2', parts: [{ text: 'new' }] });
  });

  it('keeps text and images in order, an image that fits passed through', async () => {
    const content: ContentPart[] = [
      { type: 'text', text: 'before' },
      dataImage(png, 'image/png', { filename: 'before.png' }),
      { type: 'text', text: 'after' },
    ];
    await expect(buildUserParts([user(content)])).resolves.toEqual({
      messageId: 'u1',
      parts: [{ text: 'before' }, imagePart('before.png', png), { text: 'after' }],
    });
  });

  it.each([
    { name: 'a safe name is kept', metadata: { filename: 'before.png' }, expected: 'before.png' },
    { name: 'a path is replaced', metadata: { filename: '../before.png' }, expected: 'agui-image-1' },
    { name: 'a reserved name is replaced', metadata: { filename: 'CON' }, expected: 'agui-image-1' },
    { name: 'no name', metadata: undefined, expected: 'agui-image-1' },
    { name: 'metadata without a name', metadata: { caption: 'x' }, expected: 'agui-image-1' },
    { name: 'a name that is not a string', metadata: { filename: 7 }, expected: 'agui-image-1' },
  ])('image filename: $name', async ({ metadata, expected }) => {
    const { parts } = await buildUserParts([user([dataImage(png, 'image/png', metadata)])]);
    expect(parts).toEqual([imagePart(expected, png)]);
  });

  it('numbers an unnamed image by the parts collected before it', async () => {
    const { parts } = await buildUserParts([
      user([{ type: 'text', text: 'a' }, dataImage(png), dataImage(png)]),
    ]);
    expect(parts).toEqual([{ text: 'a' }, imagePart('agui-image-2', png), imagePart('agui-image-3', png)]);
  });

  it('accepts a legacy binary image part with inline data as an inline image', async () => {
    const binary: ContentPart = {
      type: 'binary',
      mimeType: 'image/png',
      data: png.toString('base64'),
      filename: 'b.png',
    };
    await expect(buildUserParts([user([binary])])).resolves.toEqual({
      messageId: 'u1',
      parts: [imagePart('b.png', png)],
    });
  });

  it('reads the media type case-insensitively and reports that of the bytes', async () => {
    const { parts } = await buildUserParts([user([dataImage(webp, 'IMAGE/PNG')])]);
    expect(parts).toEqual([
      { data: { filename: 'agui-image-1', bytes: webp.toString('base64') }, mediaType: 'image/webp' },
    ]);
  });
});

describe('buildUserParts: refused content', () => {
  const cases: { name: string; messages: () => Message[]; key: string }[] = [
    { name: 'no messages', messages: () => [], key: 'userMessageRequired' },
    {
      name: 'no user message',
      messages: () => [
        { id: 'a', role: 'assistant', content: 'hi' },
        { id: 's', role: 'system', content: 'x' },
      ],
      key: 'userMessageRequired',
    },
    {
      name: 'content neither string nor list',
      messages: () => [{ id: 'u', role: 'user', content: { text: 'x' } } as unknown as Message],
      key: 'userContentInvalid',
    },
    {
      name: 'image by URL',
      messages: () => [
        user([{ type: 'image', source: { type: 'url', value: 'https://x/a.png', mimeType: 'image/png' } }]),
      ],
      key: 'remoteMediaUnsupported',
    },
    {
      name: 'image by provider file',
      messages: () => [user([{ type: 'image', source: { type: 'file', value: 'file-1' } }])],
      key: 'remoteMediaUnsupported',
    },
    {
      name: 'legacy binary image by URL',
      messages: () => [user([{ type: 'binary', mimeType: 'image/png', url: 'https://x/a.png' }])],
      key: 'remoteMediaUnsupported',
    },
    {
      name: 'legacy binary image by id',
      messages: () => [user([{ type: 'binary', mimeType: 'image/jpeg', id: 'upload-1' }])],
      key: 'remoteMediaUnsupported',
    },
    {
      name: 'audio',
      messages: () => [
        user([{ type: 'audio', source: { type: 'data', value: 'AAAA', mimeType: 'audio/wav' } }]),
      ],
      key: 'onlyTextAndImages',
    },
    {
      name: 'video by URL',
      messages: () => [user([{ type: 'video', source: { type: 'url', value: 'https://x/v.mp4' } }])],
      key: 'onlyTextAndImages',
    },
    {
      name: 'document',
      messages: () => [
        user([{ type: 'document', source: { type: 'data', value: 'AAAA', mimeType: 'application/pdf' } }]),
      ],
      key: 'onlyTextAndImages',
    },
    {
      name: 'legacy binary that is not an image',
      messages: () => [user([{ type: 'binary', mimeType: 'application/pdf', data: 'AAAA' }])],
      key: 'onlyTextAndImages',
    },
    {
      name: 'SVG image',
      messages: () => [user([dataImage(png, 'image/svg+xml')])],
      key: 'imageMediaTypeUnsupported',
    },
    {
      name: 'TIFF image',
      messages: () => [user([dataImage(png, 'image/tiff')])],
      key: 'imageMediaTypeUnsupported',
    },
    {
      name: 'base64 with a newline',
      messages: () => [user([dataImage('QUJD\nQUJD')])],
      key: 'imageBase64Invalid',
    },
    { name: 'base64 without padding', messages: () => [user([dataImage('QQ')])], key: 'imageBase64Invalid' },
    {
      name: 'an image of 8 MiB + 1 byte',
      messages: () => [user([dataImage(Buffer.alloc(MAX_IMAGE_BYTES + 1))])],
      key: 'imageTooLarge',
    },
    {
      name: 'an image of exactly 8 MiB (size passes, bytes are no image)',
      messages: () => [user([dataImage(Buffer.alloc(MAX_IMAGE_BYTES))])],
      key: 'imageInvalid',
    },
    {
      name: 'corrupt image bytes',
      messages: () => [user([dataImage(Buffer.from('not a png'))])],
      key: 'imageInvalid',
    },
    {
      name: 'a truncated image after a text part',
      messages: () => [user([{ type: 'text', text: 'ok' }, dataImage(png.subarray(0, 20))])],
      key: 'imageInvalid',
    },
  ];

  it.each(cases)('$name → $key', async ({ messages, key }) => {
    await expect(failureKey(buildUserParts(messages()))).resolves.toBe(key);
  });

  it('refuses images whose decoded total exceeds 10 MiB', async () => {
    // 1200×1750×3 stored without compression ≈ 6.3 MB: valid, under 8 MiB, re-encoded small.
    const heavy = await sharp({ create: { width: 1200, height: 1750, channels: 3, background: '#336699' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(heavy.length).toBeGreaterThan(6 * MiB);
    await expect(buildUserParts([user([dataImage(heavy)])])).resolves.toMatchObject({ messageId: 'u1' });
    const secondKey = await failureKey(
      buildUserParts([user([dataImage(heavy), dataImage(Buffer.alloc(4 * MiB))])]),
    );
    expect(secondKey).toBe('imagesTooLarge');
  }, 30_000);
});
