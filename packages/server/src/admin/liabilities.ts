// The back office's on-demand liabilities snapshot (docs/transparency.md, "Proof of liabilities"): journals
// `captureLiabilities` now, records it in the audit log (who, when, from where, which snapshot and seq), and
// leaves the tree's build and publication to the area's publisher, in the background.
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import { recordChange } from './audit-changes.ts';
import type { Actor } from './audit-changes.ts';
import { LiabilitiesRefusedError, onDemandSnapshotId } from '../liabilities/publisher.ts';
import type { LiabilitiesPublisher } from '../liabilities/publisher.ts';

export interface LiabilitiesCaptureContext {
  publisher: LiabilitiesPublisher;
  db: Queryable;
  actor: Actor;
  nowMs: number;
  /** Why the snapshot is taken now, for the audit log. */
  reason: string;
}

/** Takes a snapshot now; its id and seq. Refused by the engine (one still pending): `liabilities.pending`. */
export async function captureLiabilitiesNow(
  context: LiabilitiesCaptureContext,
): Promise<{ snapshotId: string; seq: number }> {
  const snapshotId = onDemandSnapshotId(context.nowMs);
  let seq: number;
  try {
    seq = await context.publisher.captureAndPublish(snapshotId);
  } catch (error) {
    if (error instanceof LiabilitiesRefusedError) throw new AppError('liabilities.pending');
    throw error;
  }
  await recordChange(context.db, context.actor, {
    action: 'liabilities.capture',
    targetType: 'liabilities_snapshot',
    targetId: snapshotId,
    detail: { seq, reason: context.reason },
  });
  return { snapshotId, seq };
}
