// The lever projections (migration 0030): lever_positions, lever_opens, lever_stops, lever_ends and
// lever_liquidations from the lever area's events, written in the batch's transaction like the other
// projections (a record is listed the moment its call is answered), as bulk inserts only (COPY on PGlite):
// a liquidation that closes many positions costs one insert per table.
import type { Command, EngineEvent } from '@fairex/engine';
import type { BulkMode, ProjectionTransaction, Projector, TableRows } from '../engine-runner/projector.ts';
import { bulkModeOf, insertRows } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;
type Of<T extends EngineEvent['type']> = Extract<EngineEvent, { type: T }>;

export const LEVER_TABLES = [
  'lever_positions',
  'lever_opens',
  'lever_stops',
  'lever_ends',
  'lever_liquidations',
] as const;

interface Rows {
  positions: { e: Of<'leverEntryPlaced'> | Of<'leverPositionOpened'>; seq: number }[];
  opens: { e: Of<'leverPositionOpened'>; seq: number }[];
  stops: { e: Of<'leverStopsSet'>; seq: number; index: number }[];
  closes: { e: Of<'leverPositionClosed'>; seq: number }[];
  revokes: { e: Of<'leverEntryRevoked'>; seq: number; timeMs: number }[];
  liquidations: { e: Of<'leverLiquidated'>; seq: number; index: number }[];
}

/** The lever rows of a batch. Pure: the same entries give the same rows. */
export function leverRows(entries: readonly Entry[]): Rows {
  const rows: Rows = { positions: [], opens: [], stops: [], closes: [], revokes: [], liquidations: [] };
  for (const { envelope, outcome } of entries) {
    // A refused outcome carries only its envelope's time-hook events; those stand too.
    outcome.events.forEach((event, index) => {
      const seq = envelope.seq;
      switch (event.type) {
        case 'leverEntryPlaced':
          rows.positions.push({ e: event, seq });
          break;
        case 'leverPositionOpened':
          if (event.fromEntry) rows.opens.push({ e: event, seq });
          else rows.positions.push({ e: event, seq });
          break;
        case 'leverStopsSet':
          rows.stops.push({ e: event, seq, index });
          break;
        case 'leverPositionClosed':
          rows.closes.push({ e: event, seq });
          break;
        case 'leverEntryRevoked':
          rows.revokes.push({ e: event, seq, timeMs: envelope.timeMs });
          break;
        case 'leverLiquidated':
          rows.liquidations.push({ e: event, seq, index });
          break;
        default:
          break;
      }
    });
  }
  return rows;
}

const text = (value: bigint) => value.toString();

/** A table's columns with their SQL types, and one array of values per column. */
function table(name: string, columns: [string, string, unknown[]][]): TableRows {
  return {
    table: name,
    columns: columns.map(([column]) => column),
    types: columns.map(([, type]) => type),
    data: columns.map(([, , values]) => values),
  };
}

export async function writeLeverRows(
  tx: ProjectionTransaction,
  entries: readonly Entry[],
  mode: BulkMode = 'unnest',
): Promise<void> {
  const rows = leverRows(entries);
  const p = rows.positions;
  await insertRows(
    tx,
    mode,
    table('lever_positions', [
      ['position_id', 'bigint', p.map(({ e }) => e.positionId)],
      ['user_id', 'int', p.map(({ e }) => e.userId)],
      ['market_id', 'int', p.map(({ e }) => e.marketId)],
      ['quote_currency_id', 'int', p.map(({ e }) => e.quoteCurrencyId)],
      ['side', 'smallint', p.map(({ e }) => e.side)],
      ['share', 'int', p.map(({ e }) => e.share)],
      ['lots', 'bigint', p.map(({ e }) => e.lots)],
      ['multiple', 'int', p.map(({ e }) => e.multiple)],
      ['entry_ticks', 'bigint', p.map(({ e }) => e.entryTicks)],
      ['contract_value', 'numeric', p.map(({ e }) => text(e.contractValue))],
      ['margin', 'numeric', p.map(({ e }) => text(e.margin))],
      ['fee', 'numeric', p.map(({ e }) => text(e.fee))],
      ['lots_per_share', 'int', p.map(({ e }) => e.rules.lotsPerShare)],
      ['spread_ppm', 'int', p.map(({ e }) => e.rules.spreadPpm)],
      ['fee_ppm', 'int', p.map(({ e }) => e.rules.feePpm)],
      ['overnight_ppm', 'int', p.map(({ e }) => e.rules.overnightPpm)],
      ['threshold_bp', 'int', p.map(({ e }) => e.rules.liquidationThresholdBp)],
      ['liquidation_fee_ppm', 'int', p.map(({ e }) => e.rules.liquidationFeePpm)],
      ['placed_status', 'smallint', p.map(({ e }) => (e.type === 'leverEntryPlaced' ? 0 : 1))],
      ['placed_ms', 'bigint', p.map(({ e }) => (e.type === 'leverEntryPlaced' ? e.placedMs : e.openedMs))],
      ['mark_ticks', 'bigint', p.map(({ e }) => e.markTicks)],
      ['created_seq', 'bigint', p.map(({ seq }) => seq)],
    ]),
  );
  const o = rows.opens;
  await insertRows(
    tx,
    mode,
    table('lever_opens', [
      ['position_id', 'bigint', o.map(({ e }) => e.positionId)],
      ['opened_ms', 'bigint', o.map(({ e }) => e.openedMs)],
      ['mark_ticks', 'bigint', o.map(({ e }) => e.markTicks)],
      ['opened_seq', 'bigint', o.map(({ seq }) => seq)],
    ]),
  );
  const s = rows.stops;
  await insertRows(
    tx,
    mode,
    table('lever_stops', [
      ['position_id', 'bigint', s.map(({ e }) => e.positionId)],
      ['seq', 'bigint', s.map(({ seq }) => seq)],
      ['event_index', 'int', s.map(({ index }) => index)],
      ['take_profit_ticks', 'bigint', s.map(({ e }) => e.takeProfitTicks)],
      ['stop_loss_ticks', 'bigint', s.map(({ e }) => e.stopLossTicks)],
    ]),
  );
  const c = rows.closes;
  const r = rows.revokes;
  const both = <T>(
    closed: (e: Of<'leverPositionClosed'>) => T,
    revoked: (e: Of<'leverEntryRevoked'>) => T,
  ) => [...c.map(({ e }) => closed(e)), ...r.map(({ e }) => revoked(e))];
  await insertRows(
    tx,
    mode,
    table('lever_ends', [
      [
        'position_id',
        'bigint',
        both(
          (e) => e.positionId,
          (e) => e.positionId,
        ),
      ],
      [
        'user_id',
        'int',
        both(
          (e) => e.userId,
          (e) => e.userId,
        ),
      ],
      [
        'market_id',
        'int',
        both(
          (e) => e.marketId,
          (e) => e.marketId,
        ),
      ],
      [
        'quote_currency_id',
        'int',
        both(
          (e) => e.quoteCurrencyId,
          (e) => e.quoteCurrencyId,
        ),
      ],
      [
        'status',
        'smallint',
        both(
          () => 3,
          () => 4,
        ),
      ],
      [
        'reason',
        'text',
        both<string | null>(
          (e) => e.reason,
          () => null,
        ),
      ],
      ['ended_ms', 'bigint', [...c.map(({ e }) => e.closedMs), ...r.map(({ timeMs }) => timeMs)]],
      [
        'close_ticks',
        'bigint',
        both<number | null>(
          (e) => e.closeTicks,
          () => null,
        ),
      ],
      [
        'mark_ticks',
        'bigint',
        both<number | null>(
          (e) => e.markTicks,
          () => null,
        ),
      ],
      [
        'margin',
        'numeric',
        both(
          (e) => text(e.margin),
          (e) => text(e.marginRefund),
        ),
      ],
      [
        'origin_margin',
        'numeric',
        both(
          (e) => text(e.originMargin),
          (e) => text(e.marginRefund),
        ),
      ],
      [
        'overnight_paid',
        'numeric',
        both(
          (e) => text(e.overnightPaid),
          () => '0',
        ),
      ],
      [
        'profit',
        'numeric',
        both(
          (e) => text(e.profit),
          () => '0',
        ),
      ],
      [
        'returned',
        'numeric',
        both(
          (e) => text(e.returned),
          (e) => text(e.marginRefund + e.feeRefund),
        ),
      ],
      [
        'loss_from_margin',
        'numeric',
        both(
          (e) => text(e.lossFromMargin),
          () => '0',
        ),
      ],
      [
        'loss_from_balance',
        'numeric',
        both(
          (e) => text(e.lossFromBalance),
          () => '0',
        ),
      ],
      [
        'loss_from_other_margins',
        'numeric',
        both(
          (e) => text(e.lossFromOtherMargins),
          () => '0',
        ),
      ],
      [
        'shortfall',
        'numeric',
        both(
          (e) => text(e.shortfall),
          () => '0',
        ),
      ],
      [
        'house_unpaid',
        'numeric',
        both(
          (e) => text(e.houseUnpaid),
          () => '0',
        ),
      ],
      [
        'fee_refund',
        'numeric',
        both(
          () => '0',
          (e) => text(e.feeRefund),
        ),
      ],
      ['ended_seq', 'bigint', [...c.map(({ seq }) => seq), ...r.map(({ seq }) => seq)]],
    ]),
  );
  const l = rows.liquidations;
  await insertRows(
    tx,
    mode,
    table('lever_liquidations', [
      ['seq', 'bigint', l.map(({ seq }) => seq)],
      ['event_index', 'int', l.map(({ index }) => index)],
      ['user_id', 'int', l.map(({ e }) => e.userId)],
      ['quote_currency_id', 'int', l.map(({ e }) => e.quoteCurrencyId)],
      ['market_id', 'int', l.map(({ e }) => e.marketId)],
      ['mark_ticks', 'bigint', l.map(({ e }) => e.markTicks)],
      ['marks', 'text', l.map(({ e }) => JSON.stringify(e.marks))],
      ['time_ms', 'bigint', l.map(({ e }) => e.timeMs)],
      ['risk_rate_bp', 'int', l.map(({ e }) => e.riskRateBp)],
      ['threshold_bp', 'int', l.map(({ e }) => e.thresholdBp)],
      ['equity', 'numeric', l.map(({ e }) => text(e.equity))],
      ['origin_margin', 'numeric', l.map(({ e }) => text(e.originMargin))],
      ['position_ids', 'text', l.map(({ e }) => e.positionIds.join(','))],
      ['shortfall', 'numeric', l.map(({ e }) => text(e.shortfall))],
      ['liquidation_fee', 'numeric', l.map(({ e }) => text(e.liquidationFee))],
    ]),
  );
}

/** The lever area's projector (registered in exchange-runner.ts). */
export function leverProjector(kind: 'pglite' | 'postgres' | undefined): Projector<Command, EngineEvent> {
  const mode = bulkModeOf(kind);
  return {
    name: 'lever',
    tables: [...LEVER_TABLES],
    project: (entries, tx) => writeLeverRows(tx, entries, mode),
  };
}
