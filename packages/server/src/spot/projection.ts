// The spot area's projection: spot orders (inserted when accepted, then updated by fills and cancels) and spot
// trades, written with the journal batch whose events produced them. The order lists and fills of
// /api/transaction_* and the trade tape read them.
import type { Command, EngineEvent } from '@fairex/engine';
import type { BulkMode, Projector, ProjectionTransaction } from '../engine-runner/projector.ts';
import { bulkModeOf, insertRows, ownerKey } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;
type OrderStatus = 'accepted' | 'resting' | 'filled' | 'cancelled';

/** An order as it stands at the end of a batch; for orders accepted before the batch, the batch's changes. */
interface OrderChange {
  orderId: number;
  /** Accepted in this batch: the full row is inserted. Otherwise the amounts below are added to the row. */
  isNew: boolean;
  ownerKey: number;
  marketId: number;
  side: 'buy' | 'sell';
  kind: 'limit' | 'market';
  priceTicks: number;
  quantityLots: number;
  holdAmount: bigint;
  clientOrderId: string | null;
  createdSeq: number;
  createdTimeMs: number;
  filledLots: number;
  baseFilled: bigint;
  quoteFilled: bigint;
  feePaid: bigint;
  releasedAmount: bigint;
  /** null: unchanged by this batch. */
  status: OrderStatus | null;
  cancelReason: string | null;
  updatedSeq: number;
  updatedTimeMs: number;
}

/** Column arrays ready for unnest; amounts as decimal text so both drivers pass them exactly. */
export interface SpotRows {
  trades: {
    tradeId: number[];
    marketId: number[];
    priceTicks: number[];
    quantityLots: number[];
    baseAmount: string[];
    quoteAmount: string[];
    makerOrderId: number[];
    makerOwnerKey: number[];
    takerOrderId: number[];
    takerOwnerKey: number[];
    makerSide: string[];
    makerFee: string[];
    makerFeeCurrencyId: number[];
    takerFee: string[];
    takerFeeCurrencyId: number[];
    seq: number[];
    timeMs: number[];
  };
  orders: OrderChange[];
}

/** Derives the spot rows of a batch. Pure: the same entries give the same rows. */
export function spotRows(entries: readonly Entry[]): SpotRows {
  const rows: SpotRows = {
    trades: {
      tradeId: [],
      marketId: [],
      priceTicks: [],
      quantityLots: [],
      baseAmount: [],
      quoteAmount: [],
      makerOrderId: [],
      makerOwnerKey: [],
      takerOrderId: [],
      takerOwnerKey: [],
      makerSide: [],
      makerFee: [],
      makerFeeCurrencyId: [],
      takerFee: [],
      takerFeeCurrencyId: [],
      seq: [],
      timeMs: [],
    },
    orders: [],
  };
  const orders = new Map<number, OrderChange>();
  for (const { envelope, outcome } of entries) {
    for (const event of outcome.events) projectEvent(rows, orders, event, envelope.seq, envelope.timeMs);
  }
  rows.orders = [...orders.values()];
  return rows;
}

function projectEvent(
  rows: SpotRows,
  orders: Map<number, OrderChange>,
  event: EngineEvent,
  seq: number,
  timeMs: number,
): void {
  switch (event.type) {
    case 'orderAccepted':
      orders.set(event.orderId, {
        orderId: event.orderId,
        isNew: true,
        ownerKey: ownerKey(event.owner),
        marketId: event.marketId,
        side: event.side,
        kind: event.kind,
        priceTicks: event.priceTicks,
        quantityLots: event.quantityLots,
        holdAmount: event.holdAmount,
        clientOrderId: event.clientOrderId ?? null,
        createdSeq: seq,
        createdTimeMs: timeMs,
        filledLots: 0,
        baseFilled: 0n,
        quoteFilled: 0n,
        feePaid: 0n,
        releasedAmount: 0n,
        status: 'accepted',
        cancelReason: null,
        updatedSeq: seq,
        updatedTimeMs: timeMs,
      });
      return;
    case 'orderRested':
      touch(orders, event.orderId, seq, timeMs).status = 'resting';
      return;
    case 'orderDone': {
      const order = touch(orders, event.orderId, seq, timeMs);
      order.status = 'filled';
      order.releasedAmount += event.releasedAmount;
      return;
    }
    case 'orderCancelled': {
      const order = touch(orders, event.orderId, seq, timeMs);
      order.status = 'cancelled';
      order.cancelReason = event.reason;
      order.releasedAmount += event.releasedAmount;
      return;
    }
    case 'trade':
      projectTrade(rows, orders, event, seq, timeMs);
      return;
    default:
      // Balance changes are the wallets area's account log; other events have no spot row.
      return;
  }
}

function projectTrade(
  rows: SpotRows,
  orders: Map<number, OrderChange>,
  event: Extract<EngineEvent, { type: 'trade' }>,
  seq: number,
  timeMs: number,
): void {
  const trades = rows.trades;
  trades.tradeId.push(event.tradeId);
  trades.marketId.push(event.marketId);
  trades.priceTicks.push(event.priceTicks);
  trades.quantityLots.push(event.quantityLots);
  trades.baseAmount.push(event.baseAmount.toString());
  trades.quoteAmount.push(event.quoteAmount.toString());
  trades.makerOrderId.push(event.makerOrderId);
  trades.makerOwnerKey.push(ownerKey(event.makerOwner));
  trades.takerOrderId.push(event.takerOrderId);
  trades.takerOwnerKey.push(ownerKey(event.takerOwner));
  trades.makerSide.push(event.makerSide);
  trades.makerFee.push(event.makerFee.toString());
  trades.makerFeeCurrencyId.push(event.makerFeeCurrencyId);
  trades.takerFee.push(event.takerFee.toString());
  trades.takerFeeCurrencyId.push(event.takerFeeCurrencyId);
  trades.seq.push(seq);
  trades.timeMs.push(timeMs);
  fill(touch(orders, event.makerOrderId, seq, timeMs), event.quantityLots, event, event.makerFee);
  fill(touch(orders, event.takerOrderId, seq, timeMs), event.quantityLots, event, event.takerFee);
}

function fill(
  order: OrderChange,
  lots: number,
  event: { baseAmount: bigint; quoteAmount: bigint },
  fee: bigint,
) {
  order.filledLots += lots;
  order.baseFilled += event.baseAmount;
  order.quoteFilled += event.quoteAmount;
  order.feePaid += fee;
}

/** The batch's change record of an order, created empty for an order accepted in an earlier batch. */
function touch(orders: Map<number, OrderChange>, orderId: number, seq: number, timeMs: number): OrderChange {
  let order = orders.get(orderId);
  if (order === undefined) {
    order = {
      orderId,
      isNew: false,
      ownerKey: 0,
      marketId: 0,
      side: 'buy',
      kind: 'limit',
      priceTicks: 0,
      quantityLots: 0,
      holdAmount: 0n,
      clientOrderId: null,
      createdSeq: 0,
      createdTimeMs: 0,
      filledLots: 0,
      baseFilled: 0n,
      quoteFilled: 0n,
      feePaid: 0n,
      releasedAmount: 0n,
      status: null,
      cancelReason: null,
      updatedSeq: seq,
      updatedTimeMs: timeMs,
    };
    orders.set(orderId, order);
  }
  order.updatedSeq = seq;
  order.updatedTimeMs = timeMs;
  return order;
}

const TRADE_COLUMNS = {
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
  types: [
    'bigint',
    'int',
    'bigint',
    'bigint',
    'numeric',
    'numeric',
    'bigint',
    'int',
    'bigint',
    'int',
    'text',
    'numeric',
    'int',
    'numeric',
    'int',
    'bigint',
    'bigint',
  ],
} as const;

const ORDER_COLUMNS = {
  table: 'spot_orders',
  columns: [
    'order_id',
    'owner_key',
    'market_id',
    'side',
    'kind',
    'price_ticks',
    'quantity_lots',
    'filled_lots',
    'hold_amount',
    'base_filled',
    'quote_filled',
    'fee_paid',
    'released_amount',
    'status',
    'cancel_reason',
    'client_order_id',
    'created_seq',
    'created_time_ms',
    'updated_seq',
    'updated_time_ms',
  ],
  types: [
    'bigint',
    'int',
    'int',
    'text',
    'text',
    'bigint',
    'bigint',
    'bigint',
    'numeric',
    'numeric',
    'numeric',
    'numeric',
    'numeric',
    'text',
    'text',
    'text',
    'bigint',
    'bigint',
    'bigint',
    'bigint',
  ],
} as const;

const UPDATE_ORDERS = `update spot_orders as o set
    filled_lots = o.filled_lots + d.filled_lots,
    base_filled = o.base_filled + d.base_filled,
    quote_filled = o.quote_filled + d.quote_filled,
    fee_paid = o.fee_paid + d.fee_paid,
    released_amount = o.released_amount + d.released_amount,
    status = coalesce(d.status, o.status),
    cancel_reason = coalesce(d.cancel_reason, o.cancel_reason),
    updated_seq = d.updated_seq,
    updated_time_ms = d.updated_time_ms
  from unnest($1::bigint[], $2::bigint[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[],
    $7::text[], $8::text[], $9::bigint[], $10::bigint[])
    as d(order_id, filled_lots, base_filled, quote_filled, fee_paid, released_amount, status, cancel_reason,
      updated_seq, updated_time_ms)
  where o.order_id = d.order_id`;

/** Writes a batch's spot rows. Throws when an order the events name has no row: a projection bug. */
export async function writeSpotRows(
  tx: ProjectionTransaction,
  rows: SpotRows,
  mode: BulkMode,
): Promise<void> {
  const trades = rows.trades;
  await insertRows(tx, mode, {
    ...TRADE_COLUMNS,
    data: [
      trades.tradeId,
      trades.marketId,
      trades.priceTicks,
      trades.quantityLots,
      trades.baseAmount,
      trades.quoteAmount,
      trades.makerOrderId,
      trades.makerOwnerKey,
      trades.takerOrderId,
      trades.takerOwnerKey,
      trades.makerSide,
      trades.makerFee,
      trades.makerFeeCurrencyId,
      trades.takerFee,
      trades.takerFeeCurrencyId,
      trades.seq,
      trades.timeMs,
    ],
  });
  await insertRows(tx, mode, {
    ...ORDER_COLUMNS,
    data: orderInsertColumns(rows.orders.filter((o) => o.isNew)),
  });
  const changed = rows.orders.filter((order) => !order.isNew);
  if (changed.length > 0) {
    const result = await tx.query(UPDATE_ORDERS, orderUpdateColumns(changed));
    if (result.rowCount !== changed.length) {
      throw new Error(`${changed.length - result.rowCount} orders named by events have no spot_orders row`);
    }
  }
}

function orderInsertColumns(orders: OrderChange[]): unknown[][] {
  return [
    orders.map((order) => order.orderId),
    orders.map((order) => order.ownerKey),
    orders.map((order) => order.marketId),
    orders.map((order) => order.side),
    orders.map((order) => order.kind),
    orders.map((order) => order.priceTicks),
    orders.map((order) => order.quantityLots),
    orders.map((order) => order.filledLots),
    orders.map((order) => order.holdAmount.toString()),
    orders.map((order) => order.baseFilled.toString()),
    orders.map((order) => order.quoteFilled.toString()),
    orders.map((order) => order.feePaid.toString()),
    orders.map((order) => order.releasedAmount.toString()),
    orders.map((order) => order.status),
    orders.map((order) => order.cancelReason),
    orders.map((order) => order.clientOrderId),
    orders.map((order) => order.createdSeq),
    orders.map((order) => order.createdTimeMs),
    orders.map((order) => order.updatedSeq),
    orders.map((order) => order.updatedTimeMs),
  ];
}

function orderUpdateColumns(orders: OrderChange[]): unknown[][] {
  return [
    orders.map((order) => order.orderId),
    orders.map((order) => order.filledLots),
    orders.map((order) => order.baseFilled.toString()),
    orders.map((order) => order.quoteFilled.toString()),
    orders.map((order) => order.feePaid.toString()),
    orders.map((order) => order.releasedAmount.toString()),
    orders.map((order) => order.status),
    orders.map((order) => order.cancelReason),
    orders.map((order) => order.updatedSeq),
    orders.map((order) => order.updatedTimeMs),
  ];
}

/** The spot area's projector for a store of the given kind: spot trades and spot orders. */
export function spotProjector(kind: 'pglite' | 'postgres' | undefined): Projector<Command, EngineEvent> {
  const mode = bulkModeOf(kind);
  return {
    name: 'spot',
    tables: ['spot_trades', 'spot_orders'],
    project: (entries, tx) => writeSpotRows(tx, spotRows(entries), mode),
  };
}
