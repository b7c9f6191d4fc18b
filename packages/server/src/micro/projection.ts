// The micro projections (migration 0018): micro_orders from microOrderPlaced and micro_results from
// microOrderSettled, written in the batch's transaction like the other projections (so an order is listed
// the moment its submit is answered), as bulk inserts only (COPY on PGlite): a second in which 50,000
// orders settle costs one insert, not 50,000 updates.
import type { Command, EngineEvent, MicroOrderPlacedEvent, MicroOrderSettledEvent } from '@fairex/engine';
import type { BulkMode, ProjectionTransaction, Projector } from '../engine-runner/projector.ts';
import { bulkModeOf, insertRows } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;

const ORDER_COLUMNS = {
  table: 'micro_orders',
  columns: [
    'order_id',
    'user_id',
    'market_id',
    'currency_id',
    'direction',
    'seconds',
    'profit_ratio_bp',
    'stake',
    'fee',
    'accepted_ms',
    'expiry_ms',
    'created_seq',
  ],
  types: [
    'bigint',
    'int',
    'int',
    'int',
    'smallint',
    'int',
    'int',
    'numeric',
    'numeric',
    'bigint',
    'bigint',
    'bigint',
  ],
} as const;

const RESULT_COLUMNS = {
  table: 'micro_results',
  columns: [
    'order_id',
    'user_id',
    'currency_id',
    'outcome',
    'void_reason',
    'max_sample_age_ms',
    'stake',
    'payout',
    'fee_refund',
    'rule_version',
    'open_seq',
    'open_time_ms',
    'open_mark_ticks',
    'open_stale',
    'open_hash',
    'end_seq',
    'end_time_ms',
    'end_mark_ticks',
    'end_stale',
    'end_hash',
    'settled_seq',
    'settled_ms',
  ],
  types: [
    'bigint',
    'int',
    'int',
    'text',
    'text',
    'int',
    'numeric',
    'numeric',
    'numeric',
    'text',
    'bigint',
    'bigint',
    'bigint',
    'boolean',
    'text',
    'bigint',
    'bigint',
    'bigint',
    'boolean',
    'text',
    'bigint',
    'bigint',
  ],
} as const;

/** Writes the micro rows of a batch: one bulk insert of new orders, one of settlements. */
export async function writeMicroRows(
  tx: ProjectionTransaction,
  entries: readonly Entry[],
  mode: BulkMode = 'unnest',
): Promise<void> {
  const placed: { e: MicroOrderPlacedEvent; seq: number }[] = [];
  const settled: { e: MicroOrderSettledEvent; seq: number; timeMs: number }[] = [];
  for (const { envelope, outcome } of entries) {
    // A refused outcome carries only the events of its envelope's time hooks (settlements stand).
    for (const event of outcome.events) {
      if (event.type === 'microOrderPlaced') placed.push({ e: event, seq: envelope.seq });
      else if (event.type === 'microOrderSettled')
        settled.push({ e: event, seq: envelope.seq, timeMs: envelope.timeMs });
    }
  }
  await insertRows(tx, mode, {
    ...ORDER_COLUMNS,
    data: [
      placed.map(({ e }) => e.orderId),
      placed.map(({ e }) => e.userId),
      placed.map(({ e }) => e.marketId),
      placed.map(({ e }) => e.currencyId),
      placed.map(({ e }) => e.direction),
      placed.map(({ e }) => e.seconds),
      placed.map(({ e }) => e.profitRatioBp),
      placed.map(({ e }) => e.stake.toString()),
      placed.map(({ e }) => e.fee.toString()),
      placed.map(({ e }) => e.acceptedMs),
      placed.map(({ e }) => e.expiryMs),
      placed.map(({ seq }) => seq),
    ],
  });
  await insertRows(tx, mode, {
    ...RESULT_COLUMNS,
    data: [
      settled.map(({ e }) => e.orderId),
      settled.map(({ e }) => e.userId),
      settled.map(({ e }) => e.currencyId),
      settled.map(({ e }) => e.outcome),
      settled.map(({ e }) => e.voidReason),
      settled.map(({ e }) => e.maxSampleAgeMs),
      settled.map(({ e }) => e.stake.toString()),
      settled.map(({ e }) => e.payout.toString()),
      settled.map(({ e }) => e.feeRefund.toString()),
      settled.map(({ e }) => e.ruleVersion),
      settled.map(({ e }) => e.open?.seq ?? null),
      settled.map(({ e }) => e.open?.timeMs ?? null),
      settled.map(({ e }) => e.open?.markTicks ?? null),
      settled.map(({ e }) => e.open?.stale ?? null),
      settled.map(({ e }) => e.open?.hash ?? null),
      settled.map(({ e }) => e.end?.seq ?? null),
      settled.map(({ e }) => e.end?.timeMs ?? null),
      settled.map(({ e }) => e.end?.markTicks ?? null),
      settled.map(({ e }) => e.end?.stale ?? null),
      settled.map(({ e }) => e.end?.hash ?? null),
      settled.map(({ seq }) => seq),
      settled.map(({ timeMs }) => timeMs),
    ],
  });
}

/** The micro area's projector (registered in exchange-runner.ts): micro_orders and micro_results. */
export function microProjector(kind: 'pglite' | 'postgres' | undefined): Projector<Command, EngineEvent> {
  const mode = bulkModeOf(kind);
  return {
    name: 'micro',
    tables: ['micro_orders', 'micro_results'],
    project: (entries, tx) => writeMicroRows(tx, entries, mode),
  };
}
