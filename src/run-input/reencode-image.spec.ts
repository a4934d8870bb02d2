import sharp from 'sharp';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { reencodeImage, TARGET_IMAGE_BYTES } from './reencode-image';

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } });
const noise = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({
    create: {
      width,
      height,
      channels,
      background: '#000000',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  });

async function failureOf(promise: Promise<unknown>): Promise<{ code: ErrorCode; key: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AguiError) return { code: error.code, key: error.messageKey };
    throw error;
  }
  throw new Error('expected the image to be refused');
}

describe('reencodeImage', () => {
  it.each([
    { name: 'PNG', make: () => solid(4, 3).png().toBuffer(), mediaType: 'image/png' },
    { name: 'JPEG', make: () => solid(4, 3).jpeg().toBuffer(), mediaType: 'image/jpeg' },
    { name: 'WebP', make: () => solid(4, 3).webp().toBuffer(), mediaType: 'image/webp' },
    { name: 'GIF', make: () => solid(4, 3).gif().toBuffer(), mediaType: 'image/gif' },
  ])('passes a small $name through untouched', async ({ make, mediaType }) => {
    const input = await make();
    const output = await reencodeImage(input);
    expect(output.mediaType).toBe(mediaType);
    expect(output.bytes.equals(input)).toBe(true);
  });

  it.each([
    { name: '3000×1000', width: 3000, height: 1000, expected: { width: 2000, height: 667 } },
    { name: '1000×3000', width: 1000, height: 3000, expected: { width: 667, height: 2000 } },
    { name: '2500×2500', width: 2500, height: 2500, expected: { width: 2000, height: 2000 } },
  ])('scales a $name PNG into 2000×2000 and keeps PNG', async ({ width, height, expected }) => {
    const output = await reencodeImage(await solid(width, height).png().toBuffer());
    expect(output.mediaType).toBe('image/png');
    const metadata = await sharp(output.bytes).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
      format: 'png',
      ...expected,
    });
  });

  it('turns a PNG that stays too heavy into a JPEG under the target, alpha flattened', async () => {
    const input = await noise(1800, 1800, 4).png({ compressionLevel: 1 }).toBuffer();
    expect(input.length).toBeGreaterThan(TARGET_IMAGE_BYTES);
    const output = await reencodeImage(input);
    expect(output.mediaType).toBe('image/jpeg');
    expect(output.bytes.length).toBeLessThanOrEqual(TARGET_IMAGE_BYTES);
    expect(output.bytes.toString('base64').length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const metadata = await sharp(output.bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.hasAlpha]).toEqual([
      'jpeg',
      1800,
      1800,
      false,
    ]);
  }, 30_000);

  it('re-encodes a heavy image that needs no scaling in its own format when that fits', async () => {
    const input = await solid(1500, 1500).png({ compressionLevel: 0 }).toBuffer();
    expect(input.length).toBeGreaterThan(TARGET_IMAGE_BYTES);
    const output = await reencodeImage(input);
    expect(output.mediaType).toBe('image/png');
    expect(output.bytes.length).toBeLessThan(input.length);
    const metadata = await sharp(output.bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 1500, 1500]);
  });

  it.each([
    { name: 'random bytes', make: async () => Buffer.from('definitely not an image, just text') },
    { name: 'an empty buffer', make: async () => Buffer.alloc(0) },
    {
      name: 'a truncated PNG',
      make: async () => {
        const png = await noise(300, 300).png().toBuffer();
        return png.subarray(0, Math.floor(png.length / 2));
      },
    },
    { name: 'a TIFF (decodable, but not an accepted format)', make: () => solid(4, 3).tiff().toBuffer() },
    {
      name: 'an SVG',
      make: async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>'),
    },
  ])('refuses $name as imageInvalid', async ({ make }) => {
    await expect(failureOf(reencodeImage(await make()))).resolves.toEqual({
      code: ErrorCode.INVALID_INPUT,
      key: 'imageInvalid',
    });
  });
});
