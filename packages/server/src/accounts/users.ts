// Reading users: by id, e-mail or phone, and the user-info answer the web client reads (spec 01 section 3).
import type { UserInfo } from '@fairex/shared';
import type { Queryable } from '../store/index.ts';

export interface UserRow {
  id: number;
  account: string;
  email: string | null;
  phone: string | null;
  area_code: string | null;
  password_hash: string;
  extension_code: string;
  parent_id: number | null;
  is_seller: boolean;
  review_status: number;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_step: number | null;
  created_at: Date;
}

const COLUMNS = `id, account, email, phone, area_code, password_hash, extension_code, parent_id, is_seller,
  review_status, totp_secret, totp_pending_secret, totp_last_step, created_at`;

export async function findUserById(db: Queryable, id: number): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`select ${COLUMNS} from users where id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`select ${COLUMNS} from users where email = $1`, [email]);
  return rows[0] ?? null;
}

export async function findUserByPhone(
  db: Queryable,
  areaCode: string,
  national: string,
): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `select ${COLUMNS} from users where area_code = $1 and phone = $2`,
    [areaCode, national],
  );
  return rows[0] ?? null;
}

/** Users with this national number in any country (the login page has no country picker). */
export async function findUsersByPhoneDigits(db: Queryable, national: string): Promise<UserRow[]> {
  const { rows } = await db.query<UserRow>(
    `select ${COLUMNS} from users where phone = $1 order by id limit 2`,
    [national],
  );
  return rows;
}

export type { UserInfo };

export function userInfo(user: UserRow): UserInfo {
  return {
    id: user.id,
    account: user.account,
    extension_code: user.extension_code,
    is_seller: user.is_seller ? 1 : 0,
    phone: user.phone,
    area_code: user.area_code,
    email: user.email,
    review_status: user.review_status,
    google_bind: user.totp_secret === null ? 0 : 1,
    created_at: user.created_at.toISOString(),
  };
}

/** True for a unique-constraint violation (PostgreSQL code 23505) from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
