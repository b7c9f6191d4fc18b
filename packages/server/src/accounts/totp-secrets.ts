// Authenticator (TOTP) secrets at rest: users' (`users.totp_secret`, `users.totp_pending_secret`) and
// administrators' (`admin_totp.secret`, `admin_totp.pending_secret`) are stored sealed with the same box as
// API-key secrets (api-keys/sealed-secrets.ts), so a database dump or the embedded store's files never hold
// one. The secret is opened only to compare a code with it.
//
// Secrets written before sealing applied are sealed by `sealStoredTotpSecrets`, a start-up step: sealing
// needs the key in the data folder, which a SQL migration cannot read. The step is idempotent (a sealed
// value is left alone) and safe with several server processes starting at once (each row is updated only
// if it still holds the plain value that was read).
import { SecretBox } from '../api-keys/sealed-secrets.ts';
import type { Queryable } from '../store/index.ts';

/** The box that seals and opens authenticator secrets, made on first use. */
export type SecretBoxSource = () => Promise<SecretBox>;

/** The plain base32 secret of a stored value: opened when sealed, as is when written before sealing. */
export async function openTotpSecret(secrets: SecretBoxSource, stored: string): Promise<string> {
  return SecretBox.isSealed(stored) ? (await secrets()).open(stored) : stored;
}

export async function sealTotpSecret(secrets: SecretBoxSource, secret: string): Promise<string> {
  return (await secrets()).seal(secret);
}

const COLUMNS: ReadonlyArray<{ table: string; key: string; column: string }> = [
  { table: 'users', key: 'id', column: 'totp_secret' },
  { table: 'users', key: 'id', column: 'totp_pending_secret' },
  { table: 'admin_totp', key: 'admin_id', column: 'secret' },
  { table: 'admin_totp', key: 'admin_id', column: 'pending_secret' },
];

/**
 * Seals every authenticator secret still stored in the clear; answers how many it sealed. The box (and its
 * key file) is only asked for when there is something to seal.
 */
export async function sealStoredTotpSecrets(db: Queryable, secrets: SecretBoxSource): Promise<number> {
  let sealed = 0;
  for (const { table, key, column } of COLUMNS) {
    const { rows } = await db.query<{ id: number; secret: string }>(
      `select ${key} as id, ${column} as secret from ${table}
        where ${column} is not null and strpos(${column}, ':') = 0`,
    );
    for (const row of rows) {
      const { rowCount } = await db.query(
        `update ${table} set ${column} = $2 where ${key} = $1 and ${column} = $3`,
        [row.id, await sealTotpSecret(secrets, row.secret), row.secret],
      );
      sealed += rowCount ?? 0;
    }
  }
  return sealed;
}
