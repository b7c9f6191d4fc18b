// The products projections (migration 0040): one bulk insert per table per batch, from the products area's
// events only (the account log of every balance change is the wallets area's). A pure function of the
// entries, so a rebuild from the journal writes the same rows.
import type { Command, EngineEvent, ProductDetails, ProductTerms } from '@fairex/engine';
import type { BulkMode, ProjectionTransaction, Projector } from '../engine-runner/projector.ts';
import { bulkModeOf, insertRows } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;

/** Terms as JSON text, amounts as decimal strings of minor units. */
export function termsJson(terms: ProductTerms): string {
  return JSON.stringify({
    start_ms: terms.startMs,
    end_ms: terms.endMs,
    currency_id: terms.currencyId,
    pay_currency_id: terms.payCurrencyId,
    total_units: terms.totalUnits.toString(),
    unit_price: terms.unitPrice.toString(),
    fee_bp: terms.feeBp,
    days: terms.days,
    rate_kind: terms.rateKind,
    rate_min: terms.rateMin.toString(),
    rate_max: terms.rateMax.toString(),
    apr_bp: terms.aprBp,
    early_exit: terms.earlyExit,
    per_user_cap: terms.perUserCap === null ? null : terms.perUserCap.toString(),
  });
}

function detailsJson(details: ProductDetails): string {
  return JSON.stringify(details);
}

type Rows = Record<string, unknown[][]>;

const TABLES = {
  product_changes: {
    columns: ['seq', 'product_id', 'kind', 'change', 'terms', 'details', 'reserve', 'time_ms'],
    types: ['bigint', 'int', 'text', 'text', 'jsonb', 'jsonb', 'numeric', 'bigint'],
  },
  product_purchases: {
    columns: [
      'holding_id',
      'product_id',
      'kind',
      'user_id',
      'units',
      'paid',
      'fee',
      'principal',
      'daily',
      'start_day',
      'days',
      'created_ms',
      'created_seq',
    ],
    types: [
      'bigint',
      'int',
      'text',
      'int',
      'numeric',
      'numeric',
      'numeric',
      'numeric',
      'numeric',
      'int',
      'int',
      'bigint',
      'bigint',
    ],
  },
  product_accruals: {
    columns: ['product_id', 'day', 'holdings', 'earnings', 'per_unit', 'released', 'time_ms', 'seq'],
    types: ['int', 'int', 'int', 'numeric', 'numeric', 'numeric', 'bigint', 'bigint'],
  },
  product_rates: {
    columns: ['product_id', 'day', 'per_unit', 'time_ms', 'seq'],
    types: ['int', 'int', 'numeric', 'bigint', 'bigint'],
  },
  product_extractions: {
    columns: ['seq', 'holding_id', 'product_id', 'user_id', 'amount', 'time_ms'],
    types: ['bigint', 'bigint', 'int', 'int', 'numeric', 'bigint'],
  },
  product_stake_ends: {
    columns: [
      'holding_id',
      'product_id',
      'user_id',
      'how',
      'principal',
      'earnings',
      'forfeited',
      'time_ms',
      'seq',
    ],
    types: ['bigint', 'int', 'int', 'text', 'numeric', 'numeric', 'numeric', 'bigint', 'bigint'],
  },
} as const;

/** The rows of a batch, one array of rows per table. */
export function productRows(entries: readonly Entry[]): Rows {
  const rows: Rows = {};
  for (const table of Object.keys(TABLES)) rows[table] = [];
  const push = (table: keyof typeof TABLES, row: unknown[]) => (rows[table] as unknown[][]).push(row);
  for (const { envelope, outcome } of entries) {
    const seq = envelope.seq;
    for (const event of outcome.events) {
      switch (event.type) {
        case 'productCreated':
          push('product_changes', [
            seq,
            event.productId,
            event.kind,
            'created',
            termsJson(event.terms),
            detailsJson(event.details),
            '0',
            event.timeMs,
          ]);
          break;
        case 'productEdited':
          push('product_changes', [
            seq,
            event.productId,
            event.kind,
            'edited',
            termsJson(event.terms),
            detailsJson(event.details),
            event.reserve.toString(),
            envelope.timeMs,
          ]);
          break;
        case 'productStatusChanged':
          push('product_changes', [
            seq,
            event.productId,
            event.kind,
            event.status,
            null,
            null,
            event.reserve.toString(),
            event.timeMs,
          ]);
          break;
        case 'productBought':
          push('product_purchases', [
            event.holdingId,
            event.productId,
            event.kind,
            event.userId,
            event.units.toString(),
            event.paid.toString(),
            event.fee.toString(),
            event.principal.toString(),
            event.daily.toString(),
            event.startDay,
            event.days,
            event.timeMs,
            seq,
          ]);
          break;
        case 'productDayAccrued':
          push('product_accruals', [
            event.productId,
            event.day,
            event.holdings,
            event.earnings.toString(),
            event.perUnit === null ? null : event.perUnit.toString(),
            event.released.toString(),
            event.timeMs,
            seq,
          ]);
          break;
        case 'minerRateRecorded':
          push('product_rates', [event.productId, event.day, event.perUnit.toString(), event.timeMs, seq]);
          break;
        case 'minerEarningsExtracted':
          push('product_extractions', [
            seq,
            event.holdingId,
            event.productId,
            event.userId,
            event.amount.toString(),
            event.timeMs,
          ]);
          break;
        case 'defiStakeEnded':
          push('product_stake_ends', [
            event.holdingId,
            event.productId,
            event.userId,
            event.how,
            event.principal.toString(),
            event.earnings.toString(),
            event.forfeited.toString(),
            event.timeMs,
            seq,
          ]);
          break;
        default:
          break;
      }
    }
  }
  return rows;
}

export async function writeProductRows(
  tx: ProjectionTransaction,
  entries: readonly Entry[],
  mode: BulkMode = 'unnest',
): Promise<void> {
  const rows = productRows(entries);
  for (const [table, spec] of Object.entries(TABLES)) {
    const tableRows = rows[table] as unknown[][];
    if (tableRows.length === 0) continue;
    await insertRows(tx, mode, {
      table,
      columns: spec.columns,
      types: spec.types,
      data: spec.columns.map((_, column) => tableRows.map((row) => row[column])),
    });
  }
}

/** The products area's projector (registered in exchange-runner.ts). */
export function productsProjector(kind: 'pglite' | 'postgres' | undefined): Projector<Command, EngineEvent> {
  const mode = bulkModeOf(kind);
  return {
    name: 'products',
    tables: [...Object.keys(TABLES)],
    project: (entries, tx) => writeProductRows(tx, entries, mode),
  };
}
