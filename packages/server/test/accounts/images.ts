// Image files for tests: real PNGs (zlib-compressed scanlines with CRCs) written here, with extra chunks or
// a declared size out of proportion to the file, and real JPEGs encoded by sharp, with EXIF if asked.
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of the given size, filled with one colour. */
export function makePng(
  width: number,
  height: number,
  rgb: [number, number, number] = [40, 90, 200],
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A 1-bit black PNG of any declared size: its rows compress to almost nothing, so 20,000 x 20,000 pixels
 * (400 megapixels, over a gigabyte once decoded to RGB) take about 50 kB, a decompression bomb.
 */
export function makeBlankPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The PNG with one more chunk before its end, e.g. a tEXt chunk ("keyword\0text"). */
export function withPngChunk(png: Buffer, type: string, data: Buffer): Buffer {
  const end = png.length - 12;
  return Buffer.concat([png.subarray(0, end), chunk(type, data), png.subarray(end)]);
}

/**
 * A real JPEG (encoded by sharp) of one colour, with the EXIF given and `padding` bytes after its end, as a
 * camera or a polyglot may leave.
 */
export async function makeJpeg(
  width: number,
  height: number,
  options: { padding?: number; exif?: Record<string, Record<string, string>> } = {},
): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } });
  const jpeg = await (options.exif ? image.jpeg().withExif(options.exif) : image.jpeg()).toBuffer();
  return Buffer.concat([jpeg, Buffer.alloc(options.padding ?? 0, 0x55)]);
}

/** The JPEG with another size written into its frame header (the pixels stay what they were). */
export function withJpegSize(jpeg: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(jpeg);
  let offset = 2;
  while (offset + 9 < copy.length) {
    const marker = copy[offset + 1];
    if (marker === 0xc0 || marker === 0xc2) {
      copy.writeUInt16BE(height, offset + 5);
      copy.writeUInt16BE(width, offset + 7);
      return copy;
    }
    offset += 2 + copy.readUInt16BE(offset + 2);
  }
  throw new Error('no frame header');
}

/** A multipart/form-data body with one file field. */
export function multipartBody(
  data: Buffer,
  options: { field?: string; filename?: string; contentType?: string } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----fairex-test-boundary';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; ` +
    `filename="${options.filename ?? 'photo.png'}"\r\nContent-Type: ${options.contentType ?? 'image/png'}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
