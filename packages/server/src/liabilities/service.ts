// The liabilities reads (docs/transparency.md, "Proof of liabilities"): the latest published snapshot
// (public) and a user's own inclusion proof in a published snapshot's sum tree (private: the caller passes
// the signed-in user's id, never one from the request), and the sealed secret the salts and order come from.
import { randomBytes } from 'node:crypto';
import type { LiabilitiesLatestReply, LiabilitiesProofReply } from '@fairex/shared';
import { sumTreeLevels } from '@fairex/engine/log/sum-tree.ts';
import { AppError } from '../http/app-error.ts';
import type { SecretBox } from '../api-keys/sealed-secrets.ts';
import type { Queryable } from '../store/index.ts';
import { splitList } from './builder.ts';

interface SnapshotRow {
  snapshot_id: string;
  seq: string | number;
  time_ms: string | number;
  columns: string;
  totals: string;
  identity: string;
  log_index: string | number | null;
  root: string | null;
  leaves: number | null;
  entry: string | null;
}

const SNAPSHOT_FIELDS =
  'snapshot_id, seq, time_ms, columns, totals, identity, log_index, root, leaves, entry';

function latestReply(row: SnapshotRow): LiabilitiesLatestReply {
  const columns = splitList(row.columns);
  const totals = splitList(row.totals);
  const identity = JSON.parse(row.identity) as [string, string, string, string][];
  return {
    snapshot_id: row.snapshot_id,
    index: Number(row.log_index),
    time: Number(row.time_ms),
    seq: Number(row.seq),
    root: row.root ?? '',
    leaves: row.leaves ?? 0,
    columns,
    totals: Object.fromEntries(columns.map((column, at) => [column, totals[at] ?? '0'])),
    identity: identity.map(([currency, users, exchange, outside]) => ({
      currency,
      users,
      exchange,
      outside,
    })),
    entry: row.entry ?? '',
  };
}

/** The latest published snapshot; null before the first (nothing published is an answer, not an error). */
export async function latestLiabilities(db: Queryable): Promise<LiabilitiesLatestReply | null> {
  const { rows } = await db.query<SnapshotRow>(
    `select ${SNAPSHOT_FIELDS} from liability_snapshots where log_index is not null
      order by log_index desc limit 1`,
  );
  const row = rows[0];
  return row === undefined ? null : latestReply(row);
}

interface ProofRow {
  position: number;
  salt: string;
  amounts: string;
  hash: string;
  level: number | null;
  node_hash: string | null;
  sums: string | null;
}

/**
 * The user's leaf and every sibling on its path in one read: at level L the sibling of the path's node is
 * index (position >> L) XOR 1 (level 0 from the leaves, the others from the nodes); a missing one (the last
 * node of an odd level, which moves up) is simply no row.
 */
const PROOF_SQL = `
  select l.position, l.salt, l.amounts, l.hash, p.level, p.node_hash, p.sums
    from liability_leaves l
    left join lateral (
      select 0 as level, s.hash as node_hash, s.amounts as sums
        from liability_leaves s
       where s.snapshot_id = l.snapshot_id and s.position = (l.position # 1)
      union all
      select n.level, n.hash, n.sums
        from generate_series(1, $3::int) as g(level)
        join liability_nodes n
          on n.snapshot_id = l.snapshot_id and n.level = g.level and n.idx = ((l.position >> g.level) # 1)
    ) p on true
   where l.snapshot_id = $1 and l.user_id = $2
   order by p.level`;

/** Builds the proof reply from a published snapshot's row and the proof read's rows. */
export function proofReply(
  snapshot: SnapshotRow,
  userId: number,
  rows: readonly ProofRow[],
): LiabilitiesProofReply {
  const leaf = rows[0] as ProofRow;
  return {
    snapshot_id: snapshot.snapshot_id,
    log_index: Number(snapshot.log_index),
    user_id: String(userId),
    position: leaf.position,
    leaves: snapshot.leaves ?? 0,
    columns: splitList(snapshot.columns),
    salt: leaf.salt,
    amounts: splitList(leaf.amounts),
    path: rows
      .filter((row) => row.level !== null)
      .map((row) => ({ hash: row.node_hash as string, sums: splitList(row.sums as string) })),
    root: snapshot.root ?? '',
    totals: splitList(snapshot.totals),
  };
}

/** The signed-in user's proof in a published snapshot. */
export async function liabilitiesProof(
  db: Queryable,
  userId: number,
  snapshotId: string,
): Promise<LiabilitiesProofReply | null> {
  const { rows: snapshots } = await db.query<SnapshotRow>(
    `select ${SNAPSHOT_FIELDS} from liability_snapshots where snapshot_id = $1 and log_index is not null`,
    [snapshotId],
  );
  const snapshot = snapshots[0];
  if (snapshot === undefined) throw new AppError('liabilities.no_snapshot');
  const levels = sumTreeLevels(Math.max(snapshot.leaves ?? 0, 1));
  const { rows } = await db.query<ProofRow>(PROOF_SQL, [snapshotId, userId, levels - 1]);
  // No leaf: the user held nothing at the snapshot, so there is nothing of theirs to prove (null).
  if (rows.length === 0) return null;
  return proofReply(snapshot, userId, rows);
}

/**
 * The liabilities secret (32 bytes), sealed in liability_secret with the server's secret box; made at first
 * use. Two starts racing both insert-or-ignore and read back the one that won.
 */
export async function liabilitiesSecret(db: Queryable, box: SecretBox): Promise<Buffer> {
  await db.query(`insert into liability_secret (id, sealed) values (1, $1) on conflict (id) do nothing`, [
    box.seal(randomBytes(32).toString('hex')),
  ]);
  const { rows } = await db.query<{ sealed: string }>(`select sealed from liability_secret where id = 1`);
  const sealed = rows[0]?.sealed;
  if (sealed === undefined) throw new Error('the liabilities secret is missing');
  return Buffer.from(box.open(sealed), 'hex');
}
