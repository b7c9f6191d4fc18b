// Invite codes. Every user has one of their own (users.extension_code); the operator has codes of their own
// (operator_invite_codes) for the first users of an exchange, who have nobody to invite them. Both share
// one alphabet and one namespace.
import { randomInt } from 'node:crypto';
import type { Queryable } from '../store/index.ts';

// No 0/O, 1/I/L: a code is read aloud and typed from paper.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const INVITE_CODE_LENGTH = 8;
/** What an invite code field accepts: a generated code or an older one of 4 to 16 letters and digits. */
export { INVITE_CODE_PATTERN } from '@fairex/shared/api/account-fields.ts';

export function randomInviteCode(length = INVITE_CODE_LENGTH): string {
  let code = '';
  for (let index = 0; index < length; index += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** A fresh code no user and no operator code has. */
export async function newInviteCode(db: Queryable): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const code = randomInviteCode();
    const { rows } = await db.query(
      `select 1 from users where extension_code = $1
        union all select 1 from operator_invite_codes where code = $1`,
      [code],
    );
    if (rows.length === 0) return code;
  }
  throw new Error('could not find a free invite code in 20 attempts');
}

export type Invite = { kind: 'user'; parentId: number; code: string } | { kind: 'operator'; code: string };

/**
 * The invite a code stands for, or null when it is unknown, disabled or used up. A code typed in lower case
 * matches its upper-case original.
 */
export async function findInvite(db: Queryable, code: string): Promise<Invite | null> {
  const given = code.trim();
  const normalized = given.toUpperCase();
  const { rows: users } = await db.query<{ id: number; extension_code: string }>(
    'select id, extension_code from users where extension_code in ($1, $2) order by extension_code = $1 desc limit 1',
    [given, normalized],
  );
  const parent = users[0];
  if (parent) return { kind: 'user', parentId: parent.id, code: parent.extension_code };
  const { rows: operator } = await db.query<{ code: string }>(
    `select code from operator_invite_codes
      where code = $1 and disabled_at is null and (max_uses is null or used_count < max_uses)`,
    [normalized],
  );
  return operator[0] ? { kind: 'operator', code: operator[0].code } : null;
}

/** Counts one use of an operator code; false when it was used up in the meantime. */
export async function useOperatorCode(db: Queryable, code: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `update operator_invite_codes set used_count = used_count + 1
      where code = $1 and disabled_at is null and (max_uses is null or used_count < max_uses)`,
    [code],
  );
  return rowCount === 1;
}

export async function createOperatorCode(
  db: Queryable,
  input: { note?: string | null; maxUses?: number | null; createdBy?: number | null },
): Promise<string> {
  const code = await newInviteCode(db);
  await db.query(
    'insert into operator_invite_codes (code, note, max_uses, created_by) values ($1, $2, $3, $4)',
    [code, input.note ?? null, input.maxUses ?? null, input.createdBy ?? null],
  );
  return code;
}

/** The oldest operator invite code that still admits users, or null when none does. */
export async function activeOperatorCode(db: Queryable): Promise<string | null> {
  const { rows } = await db.query<{ code: string }>(
    `select code from operator_invite_codes
      where disabled_at is null and (max_uses is null or used_count < max_uses) order by created_at limit 1`,
  );
  return rows[0]?.code ?? null;
}
