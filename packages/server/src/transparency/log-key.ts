// The log's Ed25519 signing key: generated at the first start, then read at every start. The public key is
// stored as is; the private key's 32-byte seed is sealed with the data folder's secret box
// (api-keys/sealed-secrets.ts), as API-key and authenticator secrets are, so the database alone never
// reveals it. Two processes starting at once both insert `on conflict do nothing` and read the one that won.
import type { SecretBox } from '../api-keys/sealed-secrets.ts';
import type { Queryable } from '../store/index.ts';
import type { Ed25519Key } from './note.ts';
import { ed25519KeyFromSeed, ed25519Seed, generateEd25519Key } from './note.ts';

/**
 * Where the running server keeps the log key: read at start when the store has one (before the runner
 * recovers, since replay re-projects checkpoints), created when the log starts. Until then there is none,
 * and nothing opens the data folder's secret box for it.
 */
export interface LogKeyRef {
  current: Ed25519Key | undefined;
}

/** Whether the store holds a log key (without opening it). */
export async function hasLogKey(db: Queryable): Promise<boolean> {
  const { rows } = await db.query('select 1 from log_key where id = 1');
  return rows.length > 0;
}

/** The log key of the store, created when it has none. */
export async function openLogKey(db: Queryable, box: SecretBox): Promise<Ed25519Key> {
  const existing = await readLogKey(db, box);
  if (existing !== undefined) return existing;
  const key = generateEd25519Key();
  await db.query(
    `insert into log_key (id, public_key, private_key_sealed) values (1, $1, $2) on conflict (id) do nothing`,
    [key.publicKey.toString('base64'), box.seal(ed25519Seed(key.privateKey).toString('base64'))],
  );
  const stored = await readLogKey(db, box);
  if (stored === undefined) throw new Error('the log key was not stored');
  return stored;
}

/** The stored log key, checked against its public half; undefined before the first start. */
export async function readLogKey(db: Queryable, box: SecretBox): Promise<Ed25519Key | undefined> {
  const { rows } = await db.query<{ public_key: string; private_key_sealed: string }>(
    'select public_key, private_key_sealed from log_key where id = 1',
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  const key = ed25519KeyFromSeed(Buffer.from(box.open(row.private_key_sealed), 'base64'));
  if (key.publicKey.toString('base64') !== row.public_key)
    throw new Error('the sealed log key does not match its stored public key');
  return key;
}
