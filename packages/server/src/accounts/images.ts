// Uploaded images: recognised by their content, never by their name or the type the client claims, sized
// from their header before anything is decoded, then decoded and encoded again by sharp (libvips), so that
// what is stored holds pixels only: no metadata (EXIF with GPS positions, XMP, comments), no text chunks,
// nothing appended after the image (a polyglot's ZIP or HTML), in a file written by a maintained encoder.
import sharp from 'sharp';
import type { Metadata } from 'sharp';

// libvips keeps recent operations, with their pixels, in a cache meant for pipelines that reuse inputs;
// every upload is a different private photo, so nothing is kept once it is encoded.
sharp.cache(false);

export type ImageFormat = 'png' | 'jpeg';

export interface ImageInfo {
  format: ImageFormat;
  mimeType: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
  width: number;
  height: number;
}

export interface EncodedImage extends ImageInfo {
  data: Buffer;
}

/** An identity photo smaller than this cannot be read by a reviewer. */
export const MIN_IMAGE_SIDE = 64;
export const MAX_IMAGE_SIDE = 12_000;
/**
 * 50 megapixels: above any phone camera, and a cap on what the server decodes (about 200 MB of pixels at
 * most) and a reviewer's browser has to show.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

export type ImageProblem = 'not_image' | 'too_many_pixels' | 'bad_size';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_START = Buffer.from([0xff, 0xd8, 0xff]);

const FORMATS: Record<ImageFormat, Pick<ImageInfo, 'mimeType' | 'extension'>> = {
  png: { mimeType: 'image/png', extension: 'png' },
  jpeg: { mimeType: 'image/jpeg', extension: 'jpg' },
};

/**
 * Only the two formats the exchange takes ever reach libvips: it can read many more (SVG, TIFF, GIF, ...),
 * and none of their parsers needs to see a stranger's file.
 */
function sniffFormat(data: Buffer): ImageFormat | null {
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (data.subarray(0, 3).equals(JPEG_START)) return 'jpeg';
  return null;
}

/**
 * What the file is and the size its header declares, read without decoding a pixel: a decompression bomb
 * (a small file declaring 20,000 x 20,000 pixels) is refused here, before anything allocates its pixels.
 */
export async function inspectImage(data: Buffer): Promise<ImageInfo | ImageProblem> {
  const sniffed = sniffFormat(data);
  if (sniffed === null) return 'not_image';
  let metadata: Metadata;
  try {
    // The header alone: sharp's own pixel limit would refuse a bomb here too, but as an error that reads
    // like any broken file; the size is compared below so that the user is told what is wrong.
    metadata = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    return 'not_image';
  }
  const { format, width, height } = metadata;
  if (format !== sniffed || !width || !height) return 'not_image';
  if (width * height > MAX_IMAGE_PIXELS) return 'too_many_pixels';
  if (Math.min(width, height) < MIN_IMAGE_SIDE || Math.max(width, height) > MAX_IMAGE_SIDE) return 'bad_size';
  return { format: sniffed, ...FORMATS[sniffed], width, height };
}

/**
 * Decodes the image (never more than the pixel limit, whatever the header said) and encodes it again in
 * its own format, upright (the EXIF orientation is applied before the EXIF goes). sharp keeps no metadata
 * unless asked to, so EXIF, XMP, IPTC, ICC profiles and PNG text chunks are all dropped. A file that does
 * not decode completely (cut short, corrupt) is not an image.
 */
export async function reencodeImage(data: Buffer, info: ImageInfo): Promise<EncodedImage | 'not_image'> {
  try {
    const pipeline = sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate();
    const encoded =
      info.format === 'png'
        ? pipeline.png({ compressionLevel: 9, adaptiveFiltering: true })
        : pipeline.jpeg({ quality: 90, chromaSubsampling: '4:2:0' });
    const { data: output, info: written } = await encoded.toBuffer({ resolveWithObject: true });
    return { ...info, data: output, width: written.width, height: written.height };
  } catch {
    return 'not_image';
  }
}
