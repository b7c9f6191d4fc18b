// The orders page across all pairs: the user's open orders (live, from the engine) and order history with
// every ending (filled; partly filled, then cancelled; cancelled unfilled), from the `spot_orders`
// projection (one row per closed order, integer codes: order-codes.ts), with filters by pair, side, status
// and time. Money stays exact: amounts are numeric text from the store and bigint here, decimal text in the
// answer.
import type { Engine, OrderView } from '@fairex/engine';
import { formatDecimal, pageRows, pagedList } from '@fairex/shared';
import type { AuthUser } from '../auth/sessions.ts';
import type { Queryable } from '../store/index.ts';
import { averagePrice } from './estimate.ts';
import type { SpotMarket, SpotMarkets } from './markets.ts';
import { formatLots, formatPrice, formatQuoteMinor } from './markets.ts';
import type { PublicCancelReason } from './order-views.ts';
import { publicCancelReason } from './order-views.ts';
import type { CancelReason } from '@fairex/engine';
import { cancelReasonOf, kindOf, sideOf, SIDE_CODE, STATUS_CODE, statusOf } from './order-codes.ts';
import { formatTime } from './time-format.ts';

export type OrderSide = 'buy' | 'sell';
/** The endings a history row can have. */
export type HistoryStatus = 'filled' | 'partially_filled_cancelled' | 'cancelled';

export interface OrderFilter {
  /** One pair, the pairs of one currency, or every pair (null). */
  markets: SpotMarket[] | null;
  side?: OrderSide | undefined;
  /** Creation time bounds, milliseconds since the epoch, inclusive. */
  startMs?: number | undefined;
  endMs?: number | undefined;
}

/** A spot_orders row as read, codes still numbers. */
interface StoredRow {
  order_id: bigint;
  market_id: number;
  side: number;
  kind: number;
  price_ticks: bigint;
  quantity_lots: bigint;
  filled_lots: bigint;
  quote_filled: string;
  fee_paid: string;
  status: number;
  cancel_reason: number | null;
  client_order_id: string | null;
  created_time_ms: bigint;
  closed_time_ms: bigint;
}

interface HistoryRow {
  order_id: bigint;
  market_id: number;
  side: OrderSide;
  kind: 'limit' | 'market';
  price_ticks: bigint;
  quantity_lots: bigint;
  filled_lots: bigint;
  quote_filled: string;
  fee_paid: string;
  status: 'filled' | 'cancelled';
  cancel_reason: CancelReason | null;
  client_order_id: string | null;
  created_time_ms: bigint;
  closed_time_ms: bigint;
}

function historyRowOf(row: StoredRow): HistoryRow {
  return {
    ...row,
    side: sideOf(row.side),
    kind: kindOf(row.kind),
    status: statusOf(row.status),
    cancel_reason: cancelReasonOf(row.cancel_reason),
  };
}

function sideFields(side: OrderSide) {
  return { side, type: side === 'buy' ? 'in' : 'out', way: side === 'buy' ? 2 : 1 };
}

function pairFields(market: SpotMarket) {
  return {
    symbol: market.symbol,
    legal_id: market.quoteCurrencyId,
    currency_id: market.baseCurrencyId,
    currency_name: market.baseCode,
    legal_name: market.quoteCode,
  };
}

export class OrderQueries {
  readonly #engine: () => Engine;
  readonly #db: Queryable;
  readonly #markets: SpotMarkets;

  constructor(engine: () => Engine, db: Queryable, markets: SpotMarkets) {
    this.#engine = engine;
    this.#db = db;
    this.#markets = markets;
  }

  /** Open orders of every pair (or the filtered ones), newest first, as they stand in the engine now. */
  async open(user: AuthUser, filter: OrderFilter, page: number, perPage: number, timeZone: string) {
    const wanted = filter.markets === null ? null : new Set(filter.markets.map((market) => market.marketId));
    const orders = this.#engine()
      .spot.openOrders(user.id)
      .filter(
        (order) =>
          (wanted?.has(order.marketId) ?? true) &&
          (filter.side === undefined || order.side === filter.side) &&
          (filter.startMs === undefined || order.acceptedTimeMs >= filter.startMs) &&
          (filter.endMs === undefined || order.acceptedTimeMs <= filter.endMs),
      )
      .sort((a, b) => b.orderId - a.orderId);
    const rows = [];
    for (const order of pageRows(orders, page, perPage)) {
      const market = await this.#markets.byId(order.marketId);
      if (market !== undefined) rows.push(openRow(market, order, timeZone));
    }
    return pagedList(rows, page, perPage, orders.length);
  }

  /** Ended orders (filled or cancelled, partly filled or not), newest first, with average price and fees. */
  async history(
    user: AuthUser,
    filter: OrderFilter & { status?: HistoryStatus | undefined },
    page: number,
    perPage: number,
    timeZone: string,
  ) {
    // Every row is a closed order: filled or cancelled.
    const conditions = [`owner_key = $1`];
    const params: unknown[] = [user.id];
    const add = (condition: string, value: unknown) => {
      params.push(value);
      conditions.push(condition.replace('?', `$${params.length}`));
    };
    if (filter.markets !== null)
      add(
        'market_id = any(?::int[])',
        filter.markets.map((market) => market.marketId),
      );
    if (filter.side !== undefined) add('side = ?', SIDE_CODE[filter.side]);
    if (filter.startMs !== undefined) add('created_time_ms >= ?', filter.startMs);
    if (filter.endMs !== undefined) add('created_time_ms <= ?', filter.endMs);
    if (filter.status === 'filled') conditions.push(`status = ${STATUS_CODE.filled}`);
    if (filter.status === 'partially_filled_cancelled')
      conditions.push(`status = ${STATUS_CODE.cancelled} and filled_lots > 0`);
    if (filter.status === 'cancelled')
      conditions.push(`status = ${STATUS_CODE.cancelled} and filled_lots = 0`);
    const where = conditions.join(' and ');
    const [{ rows }, count] = await Promise.all([
      this.#db.query<StoredRow>(
        `select order_id, market_id, side, kind, price_ticks, quantity_lots, filled_lots, quote_filled::text,
                fee_paid::text, status, cancel_reason, client_order_id, created_time_ms, closed_time_ms
           from spot_orders where ${where}
          order by order_id desc limit ${perPage} offset ${(page - 1) * perPage}`,
        params,
      ),
      this.#db.query<{ total: number }>(
        `select count(*)::int as total from spot_orders where ${where}`,
        params,
      ),
    ]);
    const list = [];
    for (const row of rows) {
      const market = await this.#markets.byId(row.market_id);
      if (market !== undefined) list.push(historyRow(market, historyRowOf(row), timeZone));
    }
    return pagedList(list, page, perPage, count.rows[0]?.total ?? 0);
  }
}

function openRow(market: SpotMarket, order: OrderView, timeZone: string) {
  return {
    id: order.orderId,
    create_time: formatTime(order.acceptedTimeMs, timeZone),
    time: order.acceptedTimeMs,
    ...pairFields(market),
    ...sideFields(order.side),
    mode: 2,
    status: order.stopTicks !== undefined ? 'pending' : order.filledLots > 0 ? 'partially_filled' : 'open',
    price: formatPrice(market, order.priceTicks),
    total_number: formatLots(market, order.quantityLots),
    complete_number: formatLots(market, order.filledLots),
    number: formatLots(market, order.remainingLots),
    total_money: formatQuoteMinor(
      market,
      BigInt(order.priceTicks) * BigInt(order.quantityLots) * market.quoteMinorPerTickLot,
    ),
    client_order_id: order.clientOrderId ?? null,
    /** A stop-limit order waiting for its trigger ('pending'), else null. */
    stop_price: order.stopTicks === undefined ? null : formatPrice(market, order.stopTicks),
  };
}

function historyStatus(row: HistoryRow): HistoryStatus {
  if (row.status === 'filled') return 'filled';
  return BigInt(row.filled_lots) > 0n ? 'partially_filled_cancelled' : 'cancelled';
}

function historyRow(market: SpotMarket, row: HistoryRow, timeZone: string) {
  const filledLots = BigInt(row.filled_lots);
  const quoteFilled = BigInt(row.quote_filled);
  const createdMs = Number(row.created_time_ms);
  const updatedMs = Number(row.closed_time_ms);
  const reason: PublicCancelReason | null =
    row.status === 'cancelled' && row.cancel_reason !== null ? publicCancelReason(row.cancel_reason) : null;
  return {
    id: Number(row.order_id),
    create_time: formatTime(createdMs, timeZone),
    time: createdMs,
    update_time: formatTime(updatedMs, timeZone),
    updated: updatedMs,
    ...pairFields(market),
    ...sideFields(row.side),
    mode: row.kind === 'limit' ? 2 : 1,
    status: historyStatus(row),
    cancel_reason: reason,
    /** The limit price; null for a market order. */
    price: row.kind === 'limit' ? formatPrice(market, BigInt(row.price_ticks)) : null,
    total_number: formatLots(market, BigInt(row.quantity_lots)),
    complete_number: formatLots(market, filledLots),
    /** Quote paid (buy) or received before fees (sell) over all fills. */
    deal_money: formatQuoteMinor(market, quoteFilled),
    average_price: filledLots === 0n ? null : averagePrice(market, quoteFilled, filledLots),
    /** The fees the order paid, in the currency it received: base for a buy, quote for a sell. */
    fee: formatDecimal(BigInt(row.fee_paid), row.side === 'buy' ? market.baseScale : market.quoteScale),
    fee_currency: row.side === 'buy' ? market.baseCode : market.quoteCode,
    client_order_id: row.client_order_id,
  };
}
