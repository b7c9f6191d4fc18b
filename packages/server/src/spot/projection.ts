// The spot area's projection: spot trades, and one spot_orders row per order written once, when it closes
// (filled or cancelled), from the closing event that carries the whole order. Open orders are not written:
// they are the engine's live state. Each row is a line of COPY text written as its event is read, with no
// row object in between. The order history of /api/transaction_*, the orders page, the back office and the
// trade tape read these tables.
import type { Command, EngineEvent } from '@fairex/engine';
import type { CopyRows, Projector, ProjectionTransaction } from '../engine-runner/projector.ts';
import { copyField, copyRows, ownerKey, writeCopyRows } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';
import { CANCEL_REASON_CODE, KIND_CODE, SIDE_CODE, STATUS_CODE } from './order-codes.ts';

type Entry = CommittedEntry<Command, EngineEvent>;
type Closing = Extract<EngineEvent, { type: 'orderDone' | 'orderCancelled' }>;
type Trade = Extract<EngineEvent, { type: 'trade' }>;

const TRADE_TABLE = {
  table: 'spot_trades',
  columns: [
    'trade_id',
    'market_id',
    'price_ticks',
    'quantity_lots',
    'base_amount',
    'quote_amount',
    'maker_order_id',
    'maker_owner_key',
    'taker_order_id',
    'taker_owner_key',
    'maker_side',
    'maker_fee',
    'maker_fee_currency_id',
    'taker_fee',
    'taker_fee_currency_id',
    'seq',
    'time_ms',
  ],
} as const;

const ORDER_TABLE = {
  table: 'spot_orders',
  columns: [
    'owner_key',
    'order_id',
    'market_id',
    'side',
    'kind',
    'status',
    'cancel_reason',
    'price_ticks',
    'quantity_lots',
    'filled_lots',
    'quote_filled',
    'fee_paid',
    'client_order_id',
    'created_time_ms',
    'closed_seq',
    'closed_time_ms',
  ],
} as const;

export interface SpotRows {
  trades: CopyRows;
  orders: CopyRows;
}

/**
 * The spot rows of a batch, each line written straight from its event (a trade; an order's closing event)
 * in the tables' column order. Pure: the same entries give the same rows.
 */
export function spotRows(entries: readonly Entry[]): SpotRows {
  const trades = copyRows(TRADE_TABLE);
  const orders = copyRows(ORDER_TABLE);
  let tradeText = '';
  let orderText = '';
  for (const { envelope, outcome } of entries) {
    const { seq, timeMs } = envelope;
    for (const event of outcome.events) {
      if (event.type === 'trade') {
        tradeText += tradeLine(event, seq, timeMs);
        trades.count += 1;
      } else if (event.type === 'orderDone' || event.type === 'orderCancelled') {
        orderText += closedOrderLine(event, seq, timeMs);
        orders.count += 1;
      }
    }
  }
  trades.text = tradeText;
  orders.text = orderText;
  return { trades, orders };
}

function tradeLine(event: Trade, seq: number, timeMs: number): string {
  return (
    `${event.tradeId}\t${event.marketId}\t${event.priceTicks}\t${event.quantityLots}\t${event.baseAmount}\t` +
    `${event.quoteAmount}\t${event.makerOrderId}\t${ownerKey(event.makerOwner)}\t${event.takerOrderId}\t` +
    `${ownerKey(event.takerOwner)}\t${event.makerSide}\t${event.makerFee}\t${event.makerFeeCurrencyId}\t` +
    `${event.takerFee}\t${event.takerFeeCurrencyId}\t${seq}\t${timeMs}\n`
  );
}

function closedOrderLine(event: Closing, seq: number, timeMs: number): string {
  // Filled: status 1 and no cancel reason (\\N, null); cancelled: status 2 and the reason's code.
  const ending =
    event.type === 'orderDone'
      ? `${STATUS_CODE.filled}\t\\N`
      : `${STATUS_CODE.cancelled}\t${CANCEL_REASON_CODE[event.reason]}`;
  return (
    `${ownerKey(event.owner)}\t${event.orderId}\t${event.marketId}\t${SIDE_CODE[event.side]}\t` +
    `${KIND_CODE[event.kind]}\t${ending}\t${event.priceTicks}\t${event.quantityLots}\t` +
    `${event.filledLots}\t${event.quoteFilled}\t${event.feePaid}\t${copyField(event.clientOrderId)}\t` +
    `${event.acceptedTimeMs}\t${seq}\t${timeMs}\n`
  );
}

/** Writes a batch's spot rows: one COPY per table. */
export async function writeSpotRows(tx: ProjectionTransaction, rows: SpotRows): Promise<void> {
  await writeCopyRows(tx, rows.trades);
  await writeCopyRows(tx, rows.orders);
}

/** The spot area's projector (both stores take COPY): spot trades and closed spot orders. */
export function spotProjector(_kind?: 'pglite' | 'postgres' | undefined): Projector<Command, EngineEvent> {
  return {
    name: 'spot',
    tables: ['spot_trades', 'spot_orders'],
    project: (entries, tx) => writeSpotRows(tx, spotRows(entries)),
  };
}
