// Private uploads (identity photos): checked to be a real PNG or JPEG of at most 4 MB and sensible size,
// written to DATA_DIR/private/uploads with owner-only permissions, and read back only for their owner or an
// administrator. Nothing under DATA_DIR/private is ever served statically.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import { inspectImage } from './images.ts';

export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Uploads one user may make per day: enough for many attempts, not enough to fill a disk. */
export const UPLOADS_PER_USER_PER_DAY = 60;

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

export async function saveUpload(
  db: Queryable,
  dataDir: string,
  userId: number,
  data: Buffer,
): Promise<StoredUpload> {
  if (data.length === 0) throw new AppError('upload.empty');
  if (data.length > MAX_UPLOAD_BYTES) throw new AppError('upload.too_large', { megabytes: 4 });
  const image = inspectImage(data);
  if (image === 'not_image') throw new AppError('upload.not_image');
  if (image === 'bad_size') throw new AppError('upload.bad_dimensions');
  const { rows: recent } = await db.query<{ count: number }>(
    `select count(*)::int as count from uploads where user_id = $1 and created_at > now() - interval '1 day'`,
    [userId],
  );
  if ((recent[0]?.count ?? 0) >= UPLOADS_PER_USER_PER_DAY) throw new AppError('upload.too_many');
  const id = randomBytes(16).toString('hex');
  const folder = uploadsFolder(dataDir);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // Written under a temporary name and renamed, so that a crash never leaves half a file under the real one.
  const target = join(folder, fileName(id, image.mimeType));
  await writeFile(`${target}.part`, data, { mode: 0o600 });
  await rename(`${target}.part`, target);
  const upload: StoredUpload = {
    id,
    user_id: userId,
    mime_type: image.mimeType,
    size_bytes: data.length,
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
      data.length,
      image.width,
      image.height,
      createHash('sha256').update(data).digest('hex'),
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
