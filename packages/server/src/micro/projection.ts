// The micro projections (migrations 0018, 0070, 0071): micro_orders from microOrderPlaced and micro_results
// from microOrderSettled (with the seqs of its two samples, whose values the price record holds), written
// by the runner like the other projections, as bulk inserts only (COPY): a second in which 50,000 orders
// settle costs one COPY, not 50,000 updates.
import type { Command, EngineEvent } from '@fairex/engine';
import type { CopyRows, ProjectionTransaction, Projector } from '../engine-runner/projector.ts';
import { copyField, copyRows, writeCopyRows } from '../engine-runner/projector.ts';
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
    'end_seq',
    'settled_seq',
    'settled_ms',
  ],
} as const;

/**
 * The micro rows of a batch as COPY text, each line written straight from its event in the table's column
 * order: one bulk write of new orders, one of settlements. Outcome, void reason and rule version are fixed
 * names; amounts bigints. Pure: the same entries give the same rows.
 */
export function microRows(entries: readonly Entry[]): { orders: CopyRows; results: CopyRows } {
  const orders = copyRows(ORDER_COLUMNS);
  const results = copyRows(RESULT_COLUMNS);
  let orderText = '';
  let resultText = '';
  for (const { envelope, outcome } of entries) {
    const { seq, timeMs } = envelope;
    // A refused outcome carries only the events of its envelope's time hooks (settlements stand).
    const events = outcome.events;
    for (let index = 0; index < events.length; index++) {
      const e = events[index] as EngineEvent;
      if (e.type === 'microOrderPlaced') {
        orderText +=
          `${e.orderId}\t${e.userId}\t${e.marketId}\t${e.currencyId}\t${e.direction}\t${e.seconds}\t` +
          `${e.profitRatioBp}\t${e.stake}\t${e.fee}\t${e.acceptedMs}\t${e.expiryMs}\t${seq}\n`;
        orders.count += 1;
      } else if (e.type === 'microOrderSettled') {
        resultText +=
          `${e.orderId}\t${e.userId}\t${e.currencyId}\t${copyField(e.outcome)}\t${copyField(e.voidReason)}\t` +
          `${e.maxSampleAgeMs}\t${e.stake}\t${e.payout}\t${e.feeRefund}\t${copyField(e.ruleVersion)}\t` +
          `${e.open === null ? '\\N' : e.open.seq}\t${e.end === null ? '\\N' : e.end.seq}\t${seq}\t${timeMs}\n`;
        results.count += 1;
      }
    }
  }
  orders.text = orderText;
  results.text = resultText;
  return { orders, results };
}

/** Writes the micro rows of a batch (needs a store transaction, which has COPY). */
export async function writeMicroRows(tx: ProjectionTransaction, entries: readonly Entry[]): Promise<void> {
  const { orders, results } = microRows(entries);
  await writeCopyRows(tx, orders);
  await writeCopyRows(tx, results);
}

/** The micro area's projector (registered in exchange-runner.ts): micro_orders and micro_results. */
export function microProjector(_kind?: 'pglite' | 'postgres' | undefined): Projector<Command, EngineEvent> {
  return {
    name: 'micro',
    tables: ['micro_orders', 'micro_results'],
    project: (entries, tx) => writeMicroRows(tx, entries),
  };
}
