import type { Sharp, SharpOptions } from 'sharp';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';

/** Largest width and height sent upstream (docs/behaviour/run-input.md#user-message). */
export const MAX_IMAGE_SIDE = 2000;
/** ≈ 3.75 MB of bytes, i.e. 5 MiB once base64-encoded: what the model providers accept per image. */
export const TARGET_IMAGE_BYTES = 3.75 * 1024 * 1024;
const JPEG_QUALITY_LADDER = [80, 60, 40, 20] as const;

const MEDIA_TYPE_BY_FORMAT: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

const DECODE_OPTIONS: SharpOptions = {
  // Corrupt or truncated pixel data is an error, not a half-grey picture.
  failOn: 'error',
  // Pillow's decompression-bomb threshold: an 8 MiB file must not become gigabytes of pixels.
  limitInputPixels: 89_478_485,
};

/**
 * libvips is loaded on the first image, not at boot: most runs carry none, and loading it costs start time
 * and resident memory (docs/benchmarks.md, `coldStartMs` and `idleRssMb`).
 */
const importSharp = () => import('sharp');
let sharpModule: ReturnType<typeof importSharp> | undefined;
const loadSharp = () => (sharpModule ??= importSharp());

export interface ReencodedImage {
  readonly bytes: Buffer;
  readonly mediaType: string;
}

/**
 * Makes an inline image acceptable upstream (docs/behaviour/run-input.md#user-message, the original's Pillow resizer): at most
 * 2000×2000 px and about 3.75 MB. An image that already fits is passed through untouched; otherwise it is
 * scaled down and re-encoded in its own format, then as JPEG at falling quality. The media type returned
 * is that of the bytes returned, whatever the client declared. Any failure → `imageInvalid`.
 */
export async function reencodeImage(input: Buffer): Promise<ReencodedImage> {
  try {
    return await fitImage(input);
  } catch (cause) {
    throw new AguiError(ErrorCode.INVALID_INPUT, 'imageInvalid', { cause });
  }
}

async function fitImage(input: Buffer): Promise<ReencodedImage> {
  const { default: sharp } = await loadSharp();
  const metadata = await sharp(input, DECODE_OPTIONS).metadata();
  const format = metadata.format;
  const mediaType = MEDIA_TYPE_BY_FORMAT[format];
  // The bytes decide, not the declared type: an SVG or TIFF sent as image/png is refused here.
  if (mediaType === undefined) throw new Error(`unsupported image format ${format}`);
  const { width, height } = metadata.autoOrient;
  if (width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && input.length <= TARGET_IMAGE_BYTES) {
    await sharp(input, DECODE_OPTIONS).stats(); // decodes every pixel: a corrupt body fails here
    return { bytes: input, mediaType };
  }
  const scaled = sharp(input, DECODE_OPTIONS)
    .autoOrient()
    .resize(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE, { fit: 'inside', withoutEnlargement: true });
  const sameFormat = await scaled.clone().toFormat(format).toBuffer();
  if (sameFormat.length <= TARGET_IMAGE_BYTES) return { bytes: sameFormat, mediaType };
  for (const quality of JPEG_QUALITY_LADDER) {
    const jpeg = await asJpeg(scaled, quality);
    if (jpeg.length <= TARGET_IMAGE_BYTES) return { bytes: jpeg, mediaType: 'image/jpeg' };
  }
  throw new Error('image does not fit the size target');
}

function asJpeg(image: Sharp, quality: number): Promise<Buffer> {
  // JPEG has no alpha: transparent pixels become white rather than black.
  return image.clone().flatten({ background: '#ffffff' }).jpeg({ quality }).toBuffer();
}
