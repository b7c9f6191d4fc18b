// The liabilities projection (migration 0160): liability_snapshots and liability_amounts from the engine's
// liabilitiesCaptured events, completed by liabilitiesPublished (log index, root, leaf count) and the log's
// logAppended of kind `liabilities` (the entry's text). Written in the batch's transaction like every
// projection, and rebuilt from the journal with them. The built trees (liability_leaves, liability_nodes)
// are not a projection: builder.ts writes them from these amounts and the sealed secret.
import type {
  Command,
  EngineEvent,
  LiabilitiesCapturedEvent,
  LiabilitiesPublishedEvent,
  LogAppendedEvent,
} from '@fairex/engine';
import type { ProjectionTransaction, Projector } from '../engine-runner/projector.ts';
import { copyField, copyRows, writeCopyRows } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;

export type { LiabilitiesCapturedEvent, LiabilitiesPublishedEvent, LogAppendedEvent };

export type LiabilitiesEvent = LiabilitiesCapturedEvent | LiabilitiesPublishedEvent | LogAppendedEvent;

/** The event as one of the log events this area reads, or undefined. */
export function liabilitiesEventOf(event: unknown): LiabilitiesEvent | undefined {
  const type = (event as { type?: unknown }).type;
  return type === 'liabilitiesCaptured' || type === 'liabilitiesPublished' || type === 'logAppended'
    ? (event as LiabilitiesEvent)
    : undefined;
}

/** The snapshot id a liabilities entry names (its "snapshot <id>" line). */
export function entrySnapshotId(entry: string): string | undefined {
  return /^snapshot (\S+)$/m.exec(entry)?.[1];
}

const AMOUNT_COLUMNS = {
  table: 'liability_amounts',
  columns: ['snapshot_id', 'user_id', 'amounts'],
} as const;

/** Writes the liabilities rows of a batch (amounts with COPY, the rare snapshot rows one statement each). */
export async function writeLiabilitiesRows(
  tx: ProjectionTransaction,
  entries: readonly { outcome: { events: readonly unknown[] } }[],
): Promise<void> {
  for (const { outcome } of entries) {
    for (const raw of outcome.events) {
      const event = liabilitiesEventOf(raw);
      if (event === undefined) continue;
      if (event.type === 'liabilitiesCaptured') {
        await tx.query(
          `insert into liability_snapshots (snapshot_id, seq, time_ms, columns, totals, identity, users)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [
            event.snapshotId,
            event.seq,
            event.timeMs,
            event.columns.join(','),
            event.totals.join(','),
            JSON.stringify(
              event.identity.map((line) => [
                line.currency,
                String(line.users),
                String(line.exchange),
                String(line.outside),
              ]),
            ),
            event.users.length,
          ],
        );
        const rows = copyRows(AMOUNT_COLUMNS);
        const id = copyField(event.snapshotId);
        let text = '';
        for (const [userId, amounts] of event.users) text += `${id}\t${userId}\t${amounts.join(',')}\n`;
        rows.text = text;
        rows.count = event.users.length;
        await writeCopyRows(tx, rows);
      } else if (event.type === 'liabilitiesPublished') {
        await tx.query(
          `update liability_snapshots set log_index = $2, root = $3, leaves = $4 where snapshot_id = $1`,
          [event.snapshotId, event.index, event.root, event.leafCount],
        );
      } else if (event.kind === 'liabilities') {
        const snapshotId = entrySnapshotId(event.entry);
        if (snapshotId !== undefined)
          await tx.query(`update liability_snapshots set entry = $2 where snapshot_id = $1`, [
            snapshotId,
            event.entry,
          ]);
      }
    }
  }
}

/** The liabilities area's projector (registered in exchange-runner.ts). */
export function liabilitiesProjector(
  _kind?: 'pglite' | 'postgres' | undefined,
): Projector<Command, EngineEvent> {
  return {
    name: 'liabilities',
    tables: ['liability_amounts', 'liability_snapshots'],
    project: (entries: readonly Entry[], tx) => writeLiabilitiesRows(tx, entries),
  };
}
