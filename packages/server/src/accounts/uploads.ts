// Private uploads (identity photos): checked to be a real PNG or JPEG of at most 4 MB and sensible size,
// counted against the user's daily limit, re-encoded (images.ts), written to DATA_DIR/private/uploads with
// owner-only permissions, and read back only for their owner or an administrator. Nothing under
// DATA_DIR/private is ever served statically.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import { inspectImage, MAX_IMAGE_PIXELS, reencodeImage } from './images.ts';

export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Uploads one user may make per day: enough for many attempts, not enough to fill a disk. */
export const UPLOADS_PER_USER_PER_DAY = 60;
/**
 * What a re-encoded image may weigh. Re-encoding a file of at most 4 MB can make it somewhat larger (a
 * strongly compressed JPEG written at quality 90); this bound only refuses what no photo becomes.
 */
export const MAX_STORED_BYTES = 16 * 1024 * 1024;

export interface StoredUpload {
  id: string;
  user_id: number;
  mime_type: 'image/png' | 'image/jpeg';
  size_bytes: number;
  width: number;
  height: number;
}

export function uploadsFolder(dataDir: string): string {
  return join(dataDir, 'private', 'uploads');
}

function fileName(id: string, mimeType: string): string {
  return `${id}.${mimeType === 'image/png' ? 'png' : 'jpg'}`;
}

/** The address the web client keeps for an upload (spec 01: "message is image address"). */
export function uploadAddress(id: string): string {
  return `/api/upload/image?id=${id}`;
}

/** The upload id in an address or a bare id, or null. */
export function uploadIdFrom(value: string): string | null {
  const text = value.trim();
  if (UPLOAD_ID.test(text)) return text;
  const match = /[?&]id=([0-9a-f]{32})(?:&|$)/.exec(text);
  return match?.[1] ?? null;
}

/**
 * Takes one of the user's uploads of the current day (UTC), or answers false when they are used up. One
 * statement on the user's counter row: PostgreSQL locks the row and checks the condition on its latest
 * version, so that of any number of parallel uploads exactly the limit get a slot. A slot stays taken when
 * the upload then fails (an image that does not decode, a full disk): the limit counts the work a user
 * asks of the server, and giving slots back would let failing files be decoded without end.
 */
export async function takeUploadSlot(db: Queryable, userId: number): Promise<boolean> {
  const { rows } = await db.query(
    `insert into upload_quota (user_id, day, used) values ($1, (now() at time zone 'UTC')::date, 1)
     on conflict (user_id) do update
        set used = case when upload_quota.day = excluded.day then upload_quota.used + 1 else 1 end,
            day = excluded.day
      where upload_quota.day <> excluded.day or upload_quota.used < $2
     returning used`,
    [userId, UPLOADS_PER_USER_PER_DAY],
  );
  return rows.length === 1;
}

export async function saveUpload(
  db: Queryable,
  dataDir: string,
  userId: number,
  data: Buffer,
): Promise<StoredUpload> {
  if (data.length === 0) throw new AppError('upload.empty');
  if (data.length > MAX_UPLOAD_BYTES) throw new AppError('upload.too_large', { megabytes: 4 });
  const header = await inspectImage(data);
  if (header === 'not_image') throw new AppError('upload.not_image');
  if (header === 'too_many_pixels') {
    throw new AppError('upload.too_many_pixels', { megapixels: MAX_IMAGE_PIXELS / 1_000_000 });
  }
  if (header === 'bad_size') throw new AppError('upload.bad_dimensions');
  // The day's slot is taken before the image is decoded, in one statement, so that parallel uploads cannot
  // all pass a count read before any of them was written.
  if (!(await takeUploadSlot(db, userId))) throw new AppError('upload.too_many');
  const image = await reencodeImage(data, header);
  if (image === 'not_image') throw new AppError('upload.not_image');
  if (image.data.length > MAX_STORED_BYTES) throw new AppError('upload.too_large', { megabytes: 4 });
  const id = randomBytes(16).toString('hex');
  const folder = uploadsFolder(dataDir);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // Written under a temporary name and renamed, so that a crash never leaves half a file under the real one.
  const target = join(folder, fileName(id, image.mimeType));
  await writeFile(`${target}.part`, image.data, { mode: 0o600 });
  await rename(`${target}.part`, target);
  const upload: StoredUpload = {
    id,
    user_id: userId,
    mime_type: image.mimeType,
    size_bytes: image.data.length,
    width: image.width,
    height: image.height,
  };
  await db.query(
    `insert into uploads (id, user_id, mime_type, size_bytes, width, height, sha256)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      id,
      userId,
      image.mimeType,
      image.data.length,
      image.width,
      image.height,
      createHash('sha256').update(image.data).digest('hex'),
    ],
  );
  return upload;
}

export async function findUpload(db: Queryable, id: string): Promise<StoredUpload | null> {
  const { rows } = await db.query<StoredUpload>(
    'select id, user_id, mime_type, size_bytes, width, height from uploads where id = $1',
    [id],
  );
  return rows[0] ?? null;
}

export async function readUploadFile(dataDir: string, upload: StoredUpload): Promise<Buffer> {
  return readFile(join(uploadsFolder(dataDir), fileName(upload.id, upload.mime_type)));
}
