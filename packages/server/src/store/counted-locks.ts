// Counted limits ("at most N of something per owner") are checked and recorded in one step: inside one
// transaction, the transaction first takes a lock per counted owner, then counts, then writes the new row.
// A second request for the same owner waits at the lock until the first commits or rolls back, so it counts
// the first one's row: of any number of parallel requests exactly the limit get through, on PostgreSQL
// (whose default isolation would otherwise let every parallel transaction count the same rows) and on PGlite
// (one session, where transactions already run one at a time).
//
// The locks are PostgreSQL transaction-level advisory locks: released by the commit or the rollback, never
// left behind by a crash. Keys are 64-bit numbers derived from "<scope>:<owner>"; two owners that happen to
// share a key only wait for each other. Several keys are taken in ascending order so that two transactions
// locking overlapping sets cannot deadlock.
import { createHash } from 'node:crypto';
import type { Queryable } from './store.ts';

/** The advisory lock key of one counted owner (a signed 64-bit number, as PostgreSQL's bigint). */
export function countedLockKey(scope: string, owner: string | number): bigint {
  return createHash('sha256').update(`${scope}:${owner}`).digest().readBigInt64BE(0);
}

/**
 * Takes, for the rest of the transaction `tx`, the lock of each owner (scope and owner id or text). Call it
 * first in the transaction that counts and inserts; it must run inside a transaction (outside one the lock
 * would be released at once).
 */
export async function lockCounted(
  tx: Queryable,
  owners: ReadonlyArray<readonly [scope: string, owner: string | number]>,
): Promise<void> {
  const keys = [...new Set(owners.map(([scope, owner]) => countedLockKey(scope, owner)))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  for (const key of keys) await tx.query('select pg_advisory_xact_lock($1::bigint)', [key.toString()]);
}
