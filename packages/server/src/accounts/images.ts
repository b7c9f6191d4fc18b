// Recognising an uploaded image by its content, never by its name or the type the client claims: a PNG or
// a baseline/progressive JPEG, with its pixel size read from the header and checked for sense.
export interface ImageInfo {
  mimeType: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
  width: number;
  height: number;
}

/** An identity photo smaller than this cannot be read by a reviewer. */
export const MIN_IMAGE_SIDE = 64;
export const MAX_IMAGE_SIDE = 12_000;
/** 50 megapixels: above any phone camera, and a cap on what a reviewer's browser has to decode. */
export const MAX_IMAGE_PIXELS = 50_000_000;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type ImageProblem = 'not_image' | 'bad_size';

export function inspectImage(data: Buffer): ImageInfo | ImageProblem {
  const found = readPng(data) ?? readJpeg(data);
  if (found === null) return 'not_image';
  const { width, height } = found;
  if (
    width < MIN_IMAGE_SIDE ||
    height < MIN_IMAGE_SIDE ||
    width > MAX_IMAGE_SIDE ||
    height > MAX_IMAGE_SIDE ||
    width * height > MAX_IMAGE_PIXELS
  ) {
    return 'bad_size';
  }
  return found;
}

/** PNG: the signature, an IHDR chunk first, and an IEND chunk at the very end (so it is not cut short). */
function readPng(data: Buffer): ImageInfo | null {
  if (data.length < 8 + 25 + 12 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (data.readUInt32BE(8) !== 13 || data.toString('latin1', 12, 16) !== 'IHDR') return null;
  const width = data.readUInt32BE(16);
  const height = data.readUInt32BE(20);
  const bitDepth = data[24];
  const colourType = data[25];
  if (bitDepth === undefined || ![1, 2, 4, 8, 16].includes(bitDepth)) return null;
  if (colourType === undefined || ![0, 2, 3, 4, 6].includes(colourType)) return null;
  const end = data.length - 12;
  if (data.readUInt32BE(end) !== 0 || data.toString('latin1', end + 4, end + 8) !== 'IEND') return null;
  return { mimeType: 'image/png', extension: 'png', width, height };
}

// Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const START_OF_SCAN = 0xda;

/** JPEG: SOI, then marker segments up to the start of scan, one of them a frame header with the size. */
function readJpeg(data: Buffer): ImageInfo | null {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8 || data[2] !== 0xff) return null;
  let offset = 2;
  let size: { width: number; height: number } | null = null;
  while (offset + 4 <= data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1];
    if (marker === undefined) return null;
    // Fill bytes before a marker are allowed.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > data.length) return null;
    if (SOF_MARKERS.has(marker)) {
      if (length < 8) return null;
      size = { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    if (marker === START_OF_SCAN) {
      // Image data follows the scan header; a real file ends with EOI (FF D9), perhaps with padding after.
      const tail = data.subarray(Math.max(offset, data.length - 64));
      const hasEnd = tail.includes(Buffer.from([0xff, 0xd9]));
      return size && hasEnd ? { mimeType: 'image/jpeg', extension: 'jpg', ...size } : null;
    }
    offset += 2 + length;
  }
  return null;
}
