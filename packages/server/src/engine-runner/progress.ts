// How far the projections are written: one row (migration 0080) holding the last seq whose projections are
// committed. The projector stage (runner.ts) updates it in the transaction that writes the rows, so the row
// and the projection tables always agree; recovery re-projects every journaled command after it.
import type { Queryable } from '../store/index.ts';
import { RecoveryError } from './errors.ts';
import { toSafeNumber } from './journal.ts';

/** The last seq whose projections are written (the migration starts it at the journal's end). */
export async function readProjectedSeq(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ projected_seq: bigint }>(
    'select projected_seq from engine_projection_progress where id = 1',
  );
  const row = rows[0];
  if (row === undefined) throw new RecoveryError('engine_projection_progress has no row: run the migrations');
  return toSafeNumber(row.projected_seq, 'projected_seq');
}

/** Records that the projections are written up to `seq`, in the transaction that wrote them. */
export async function recordProjectedSeq(tx: Queryable, seq: number): Promise<void> {
  await tx.query('update engine_projection_progress set projected_seq = $1 where id = 1', [seq]);
}
