// Uploads: images recognised by content with their size read from the header, the 4 MB limit, private
// storage with owner-only permissions, and reading back by the owner alone.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectImage } from '../../src/accounts/images.ts';
import { uploadsFolder } from '../../src/accounts/uploads.ts';
import { removeTempDirs } from '../helper.ts';
import type { AccountsTestApp, RegisteredUser } from './helpers.ts';
import { accountsApp, call, registerByEmail, uploadFile } from './helpers.ts';
import { makeBlankPng, makeJpeg, makePng, withJpegSize } from './images.ts';

describe('inspectImage', () => {
  it('reads the format and size of a PNG and of a JPEG from their headers', async () => {
    expect(await inspectImage(makePng(320, 200))).toEqual({
      format: 'png',
      mimeType: 'image/png',
      extension: 'png',
      width: 320,
      height: 200,
    });
    expect(await inspectImage(await makeJpeg(640, 480))).toEqual({
      format: 'jpeg',
      mimeType: 'image/jpeg',
      extension: 'jpg',
      width: 640,
      height: 480,
    });
  });

  it.each([
    ['text', Buffer.from('hello, this is not an image at all')],
    ['a GIF', Buffer.from('GIF89a\x40\x00\x40\x00\x00\x00\x00;', 'latin1')],
    ['a PNG signature alone', makePng(100, 100).subarray(0, 8)],
    ['a JPEG start alone', Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0, 0xff, 0xd9])],
    ['an HTML page named .png', Buffer.from('<html><script>alert(1)</script></html>')],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"/>')],
  ])('refuses %s', async (_name, data) => {
    expect(await inspectImage(data)).toBe('not_image');
  });

  it.each([
    [10, 10],
    [63, 500],
    [12_001, 100],
  ])('refuses a %i x %i image', async (width, height) => {
    expect(await inspectImage(makeBlankPng(width, height))).toBe('bad_size');
    expect(await inspectImage(withJpegSize(await makeJpeg(100, 100), width, height))).toBe('bad_size');
  });

  it('refuses more than 50 megapixels by the size the header declares', async () => {
    expect(await inspectImage(makeBlankPng(10_000, 10_000))).toBe('too_many_pixels');
    expect(await inspectImage(withJpegSize(await makeJpeg(100, 100), 8_000, 8_000))).toBe('too_many_pixels');
    expect(await inspectImage(makeBlankPng(7_000, 7_000))).toMatchObject({ width: 7_000, height: 7_000 });
  });
});

describe('POST /api/upload and GET /api/upload/image', () => {
  let test: AccountsTestApp;
  let owner: RegisteredUser;
  let stranger: RegisteredUser;

  beforeAll(async () => {
    test = await accountsApp();
    owner = await registerByEmail(test);
    stranger = await registerByEmail(test);
  });

  afterAll(async () => {
    await test?.close();
    await removeTempDirs();
  });

  it('stores a PNG privately and gives it back to its owner only', async () => {
    const png = makePng(200, 120);
    const reply = await uploadFile(test.app, owner.token, png, { filename: 'front.png' });
    expect(reply.type).toBe('ok');
    const address = reply.message as string;
    expect(address).toMatch(/^\/api\/upload\/image\?id=[0-9a-f]{32}$/);
    const id = address.split('=')[1] ?? '';
    const file = await stat(join(uploadsFolder(test.dataDir), `${id}.png`));
    expect(file.mode & 0o777).toBe(0o600);
    expect((await stat(uploadsFolder(test.dataDir))).mode & 0o077).toBe(0);
    const { rows } = await test.store.query(
      'select user_id, mime_type, size_bytes, width, height from uploads where id = $1',
      [id],
    );
    expect(rows[0]).toEqual({
      user_id: owner.id,
      mime_type: 'image/png',
      size_bytes: file.size,
      width: 200,
      height: 120,
    });

    const mine = await test.app.inject({
      method: 'GET',
      url: address,
      headers: { authorization: owner.token },
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.headers['cache-control']).toBe('private, no-store');
    // What comes back is the stored, re-encoded file: the same picture.
    const { data: pixels, info } = await sharp(mine.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ format: 'raw', width: 200, height: 120, channels: 3 });
    expect([...pixels.subarray(0, 3)]).toEqual([40, 90, 200]);

    const theirs = await test.app.inject({
      method: 'GET',
      url: `${address}&lang=en`,
      headers: { authorization: stranger.token },
    });
    expect(theirs.json()).toEqual({
      type: 'error',
      message: 'The image was not found. Please upload it again.',
    });
    const nobody = await test.app.inject({ method: 'GET', url: address });
    expect(nobody.json().type).toBe('999');
  });

  it('takes a JPEG whatever name and type the client claims', async () => {
    const reply = await uploadFile(test.app, owner.token, await makeJpeg(800, 600), {
      filename: 'x.gif',
      contentType: 'image/gif',
    });
    expect(reply.type).toBe('ok');
  });

  it.each([
    ['a text file named .png', () => Buffer.from('not an image'), 'Only JPG and PNG images are accepted.'],
    ['an empty file', () => Buffer.alloc(0), 'The file is empty.'],
    ['a tiny image', () => makePng(20, 20), 'The image must be between 64 and 12,000 pixels on each side.'],
    [
      'a file over 4 MB',
      () => makeJpeg(1000, 1000, { padding: 4 * 1024 * 1024 }),
      'The image must be at most 4 MB.',
    ],
    ['a PNG cut short', () => makePng(100, 100).subarray(0, 60), 'Only JPG and PNG images are accepted.'],
    [
      'a JPEG without its end',
      async () => (await makeJpeg(100, 100)).subarray(0, 300),
      'Only JPG and PNG images are accepted.',
    ],
  ])('refuses %s and stores nothing', async (_name, make, message) => {
    const data = await make();
    const before = await test.store.query<{ count: number }>('select count(*)::int as count from uploads');
    expect(await uploadFile(test.app, owner.token, data)).toEqual({ type: 'error', message });
    const after = await test.store.query<{ count: number }>('select count(*)::int as count from uploads');
    expect(after.rows[0]?.count).toBe(before.rows[0]?.count);
  });

  it('accepts exactly 4 MB', async () => {
    const base = await makeJpeg(1000, 1000);
    const data = await makeJpeg(1000, 1000, { padding: 4 * 1024 * 1024 - base.length });
    expect(data.length).toBe(4 * 1024 * 1024);
    expect((await uploadFile(test.app, owner.token, data)).type).toBe('ok');
  });

  it('refuses a body that is not a file upload, and a request without a file', async () => {
    expect(await call(test.app, '/upload', { file: 'x' }, { token: owner.token })).toEqual({
      type: 'error',
      message: 'Send the image as a file upload (multipart/form-data).',
    });
    const boundary = 'b0undary';
    const empty = await test.app.inject({
      method: 'POST',
      url: '/api/upload?lang=en',
      headers: { authorization: owner.token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
    });
    expect(empty.json()).toEqual({ type: 'error', message: 'Please choose an image file.' });
  });

  it.each([
    ['without its boundary', 'multipart/form-data', 'x=1'],
    ['without its boundary, with a charset', 'multipart/form-data; charset=utf-8', 'x=1'],
    ['that is not multipart at all', 'multipart/form-data; boundary=x', 'x=1'],
    ['that ends inside a part', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data'],
  ])('refuses a multipart body %s with the same message, never a 500', async (_, contentType, payload) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/upload?lang=en',
      headers: { authorization: owner.token, 'content-type': contentType },
      payload,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      type: 'error',
      message: 'Send the image as a file upload (multipart/form-data).',
    });
  });

  it('answers 999 without a token', async () => {
    expect((await uploadFile(test.app, undefined, makePng(100, 100))).type).toBe('999');
  });
});
