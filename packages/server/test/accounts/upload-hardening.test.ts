// Uploads under attack: parallel uploads cannot pass the daily limit, and what is stored is a re-encoded
// image only: no EXIF (with its GPS position), no PNG text chunk carrying HTML, nothing appended after the
// image, and a decompression bomb is refused by its declared size before anything is decoded.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findUpload,
  uploadIdFrom,
  uploadsFolder,
  UPLOADS_PER_USER_PER_DAY,
} from '../../src/accounts/uploads.ts';
import { removeTempDirs } from '../helper.ts';
import type { AccountsTestApp } from './helpers.ts';
import { accountsApp, registerByEmail, uploadFile } from './helpers.ts';
import { makeBlankPng, makeJpeg, makePng, withPngChunk } from './images.ts';

let test: AccountsTestApp;

beforeAll(async () => {
  test = await accountsApp();
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

async function uploadCount(userId: number): Promise<number> {
  const { rows } = await test.store.query<{ count: number }>(
    'select count(*)::int as count from uploads where user_id = $1',
    [userId],
  );
  return rows[0]?.count ?? -1;
}

/** Uploads as a fresh user and returns the file the server stored. */
async function storedFileOf(data: Buffer): Promise<{ file: Buffer; mimeType: string }> {
  const user = await registerByEmail(test);
  const reply = await uploadFile(test.app, user.token, data);
  expect(reply.type).toBe('ok');
  const upload = await findUpload(test.store, uploadIdFrom(reply.message as string) ?? '');
  if (!upload) throw new Error('the upload was not recorded');
  const extension = upload.mime_type === 'image/png' ? 'png' : 'jpg';
  const file = await readFile(join(uploadsFolder(test.dataDir), `${upload.id}.${extension}`));
  const served = await test.app.inject({
    method: 'GET',
    url: `/api/upload/image?id=${upload.id}`,
    headers: { authorization: user.token },
  });
  expect(served.rawPayload.equals(file)).toBe(true);
  return { file, mimeType: upload.mime_type };
}

/** The PNG's chunk types in order. */
function pngChunks(png: Buffer): string[] {
  const types: string[] = [];
  let offset = 8;
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    types.push(png.toString('latin1', offset + 4, offset + 8));
    offset += 12 + length;
  }
  return types;
}

describe('the daily upload limit', () => {
  it(`lets exactly ${UPLOADS_PER_USER_PER_DAY} of 100 parallel uploads through`, async () => {
    const user = await registerByEmail(test);
    const image = makePng(64, 64);
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => uploadFile(test.app, user.token, image)),
    );
    const accepted = replies.filter((reply) => reply.type === 'ok');
    const refused = replies.filter((reply) => reply.type !== 'ok');
    expect(accepted).toHaveLength(UPLOADS_PER_USER_PER_DAY);
    expect(new Set(refused.map((reply) => reply.message))).toEqual(
      new Set(['Too many uploads today. Please try again tomorrow.']),
    );
    expect(await uploadCount(user.id)).toBe(UPLOADS_PER_USER_PER_DAY);
    // Another user's limit is their own.
    const other = await registerByEmail(test);
    expect((await uploadFile(test.app, other.token, image)).type).toBe('ok');
  });

  it('opens again on the next day', async () => {
    const user = await registerByEmail(test);
    await test.store.query(
      `insert into upload_quota (user_id, day, used) values ($1, (now() at time zone 'UTC')::date, $2)`,
      [user.id, UPLOADS_PER_USER_PER_DAY],
    );
    expect((await uploadFile(test.app, user.token, makePng(64, 64))).message).toBe(
      'Too many uploads today. Please try again tomorrow.',
    );
    await test.store.query(`update upload_quota set day = day - 1 where user_id = $1`, [user.id]);
    expect((await uploadFile(test.app, user.token, makePng(64, 64))).type).toBe('ok');
    const { rows } = await test.store.query<{ used: number }>(
      'select used from upload_quota where user_id = $1',
      [user.id],
    );
    expect(rows[0]?.used).toBe(1);
  });
});

describe('what is stored is the re-encoded image only', () => {
  it('drops the EXIF of a JPEG, with its GPS position', async () => {
    const jpeg = await makeJpeg(320, 240, {
      exif: {
        IFD0: { Make: 'SpyCam', Model: 'Tracker 9000' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '39/1 54/1 27/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '116/1 23/1 5/1',
        },
      },
    });
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    expect(jpeg.includes('SpyCam')).toBe(true);
    const { file, mimeType } = await storedFileOf(jpeg);
    expect(mimeType).toBe('image/jpeg');
    const metadata = await sharp(file).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(file.includes('Exif')).toBe(false);
    expect(file.includes('SpyCam')).toBe(false);
  });

  it('drops a PNG text chunk carrying HTML', async () => {
    const html = '<html><body><script>fetch("/api/user/info")</script></body></html>';
    const png = withPngChunk(makePng(120, 90), 'tEXt', Buffer.from(`Comment\0${html}`, 'latin1'));
    expect(pngChunks(png)).toContain('tEXt');
    const { file, mimeType } = await storedFileOf(png);
    expect(mimeType).toBe('image/png');
    expect(pngChunks(file)).not.toContain('tEXt');
    expect(file.includes('<script')).toBe(false);
    expect(await sharp(file).metadata()).toMatchObject({ format: 'png', width: 120, height: 90 });
  });

  it.each([
    ['a PNG followed by a ZIP', () => makePng(100, 100), 'png'],
    ['a JPEG followed by an HTML page', () => makeJpeg(100, 100), 'jpeg'],
  ])('stores %s re-encoded, without what followed the image', async (_name, make, format) => {
    const zip = Buffer.concat([
      Buffer.from('PK\x03\x04\x14\x00\x00\x00\x00\x00', 'latin1'),
      Buffer.from('payload.html<html><script>alert(document.cookie)</script></html>'),
    ]);
    const polyglot = Buffer.concat([await make(), zip]);
    const { file } = await storedFileOf(polyglot);
    expect(file.includes('PK\x03\x04')).toBe(false);
    expect(file.includes('<script')).toBe(false);
    expect(await sharp(file).metadata()).toMatchObject({ format, width: 100, height: 100 });
    // The stored file ends where its image ends.
    if (format === 'png') expect(file.subarray(-8, -4).toString('latin1')).toBe('IEND');
    else expect([...file.subarray(-2)]).toEqual([0xff, 0xd9]);
  });
});

describe('decompression bombs', () => {
  it('refuses a small file declaring 20,000 x 20,000 pixels by its header, before decoding it', async () => {
    const bomb = makeBlankPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(200_000);
    const user = await registerByEmail(test);
    const started = performance.now();
    const reply = await uploadFile(test.app, user.token, bomb);
    const elapsedMs = performance.now() - started;
    expect(reply).toEqual({
      type: 'error',
      message: 'The image has too many pixels: at most 50 megapixels (width x height).',
    });
    // Decoding 400 megapixels would take many seconds and over a gigabyte; reading a header takes
    // milliseconds. The bound is loose on purpose: it is a shared machine.
    expect(elapsedMs).toBeLessThan(3_000);
    expect(await uploadCount(user.id)).toBe(0);
    // Refused before a slot of the day was taken.
    const { rows } = await test.store.query('select used from upload_quota where user_id = $1', [user.id]);
    expect(rows).toEqual([]);
    expect((await uploadFile(test.app, user.token, bomb, { lang: 'zh' })).message).toBe(
      '图片像素过多：宽 x 高不能超过 50 百万像素。',
    );
  });
});
