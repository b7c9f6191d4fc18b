// The spot calls of spec 01 section 7: the input schemas the server validates with and the replies it builds,
// declared once for the server and the clients that read them. Prices, quantities and balances are decimal
// text at the market's precision; times are the server's text in the caller's time zone plus milliseconds.
import { z } from 'zod';
import { id, integer, oneOf, optional, page, text } from '../schema/fields.ts';
import { paged } from '../envelope.ts';
import type { MarkIndexFields, ShownPriceKind } from './price.ts';

const CLIENT_ORDER_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/** POST /transaction/in and /transaction/out: mode 1 market, 2 limit (the default). */
export const spotOrderInput = z.object({
  legal_id: id(),
  currency_id: id(),
  // Decimal text is parsed at the market's precision once the market is known (server spot/order-input.ts).
  price: optional(text({ max: 64 })),
  num: text({ max: 64 }),
  mode: optional(oneOf([1, 2])),
  client_order_id: optional(z.string().regex(CLIENT_ORDER_ID_PATTERN)),
  // Limit orders only; absent is gtc, so the template's clients place as before.
  time_in_force: optional(oneOf(['gtc', 'ioc', 'fok', 'post_only'])),
  // A stop-limit order: decimal text, triggered when a trade reaches it (limit, gtc only).
  stop_price: optional(text({ max: 64 })),
});

/** The user's open orders and fills: a page, optionally of one pair or one currency. */
export const spotListInput = z.object({
  page: page(),
  per_page: optional(integer({ min: 1, max: 100 })),
  legal_id: optional(id()),
  currency_id: optional(id()),
});

/** /transaction/deal: a pair (the whole answer), or a symbol under `address` (recent trades only). */
export const spotDealInput = z.object({
  legal_id: optional(id()),
  currency_id: optional(id()),
  address: optional(text({ max: 40 })),
});

/** /lever/deal: one pair. */
export const spotPairInput = z.object({ legal_id: id(), currency_id: id() });

/** /transaction_del: the order, and optionally the side the client believes it has. */
export const spotRevokeInput = z.object({
  id: id(),
  type: optional(oneOf(['in', 'out', 'buy', 'sell'])),
});

/** The largest time the order lists accept (milliseconds; the largest a JavaScript Date holds). */
const MAX_TIME_MS = 8_640_000_000_000_000;

/** One pair by its ids or its symbol; none is every pair. */
const pairFilter = {
  legal_id: optional(id()),
  currency_id: optional(id()),
  symbol: optional(text({ max: 40 })),
};

/** The fields of the order lists: a pair, a side, a creation-time range and a page. */
const orderListFields = {
  ...pairFilter,
  side: optional(oneOf(['buy', 'sell'])),
  // Milliseconds since the epoch, both inclusive; either may be absent (open-ended). No limit on the span:
  // both lists are read per owner (the engine's open orders, the history by its owner index), so a wider
  // range costs no more than no range.
  start_time: optional(integer({ min: 0, max: MAX_TIME_MS })),
  end_time: optional(integer({ min: 0, max: MAX_TIME_MS })),
  page: page(),
  per_page: optional(integer({ min: 1, max: 100 })),
};

/** Refuses a range whose start is after its end, on the end field, with a translated message. */
function orderedTimeRange(
  input: { start_time?: number | undefined; end_time?: number | undefined },
  context: z.RefinementCtx,
) {
  if (input.start_time !== undefined && input.end_time !== undefined && input.start_time > input.end_time) {
    context.addIssue({ code: 'custom', message: 'market.range_order', path: ['end_time'] });
  }
}

/** /orders/open (open orders across pairs): a pair, a side, a time range and a page. */
export const spotOrderListInput = z.object(orderListFields).superRefine(orderedTimeRange);

/** /orders/history: as the open orders, and a final state. */
export const spotOrderHistoryInput = z
  .object({
    ...orderListFields,
    status: optional(oneOf(['filled', 'partially_filled_cancelled', 'cancelled'])),
  })
  .superRefine(orderedTimeRange);

/** /orders/cancel_all: the open orders of one pair, or of every pair. */
export const spotCancelAllInput = z.object(pairFilter);

/** /transaction/estimate: what a market order would fill, before placing it. */
export const spotEstimateInput = z.object({
  legal_id: optional(id()),
  currency_id: optional(id()),
  symbol: optional(text({ max: 40 })),
  side: oneOf(['buy', 'sell']),
  // Decimal text, parsed at the market's precision: the quantity, and for a buy the quote to spend.
  num: optional(text({ max: 64 })),
  total: optional(text({ max: 64 })),
});

/** The market's precision and limits, as /transaction/deal reports them with the book. */
export interface SpotMarketInfo {
  id: number;
  symbol: string;
  legal_id: number;
  currency_id: number;
  legal_name: string;
  currency_name: string;
  price_scale: number;
  number_scale: number;
  legal_scale: number;
  currency_scale: number;
  price_tick: string;
  number_step: string;
  min_number: string;
  min_total: string;
  /** Percent. */
  maker_fee: string;
  taker_fee: string;
}

export interface BookLevel {
  price: string;
  number: string;
  /** Running total of quantity from the best price outwards. */
  sum?: string;
}

/** One recent trade of a market. */
export interface TradeDetail {
  id: number;
  create_time: string;
  time: number;
  price: string;
  number: string;
  /** The taker's side. */
  way: 'buy' | 'sell';
}

/** /transaction/deal with a pair: the book, the last price, the caller's two balances, recent trades. */
export interface SpotDeal extends MarkIndexFields {
  in: BookLevel[];
  out: BookLevel[];
  /** The last trade with a user, else the recorded mark (`price_kind` says which); null with neither. */
  last_price: string | null;
  price_kind?: ShownPriceKind;
  user_currency: string | null;
  user_legal: string | null;
  user_currency_lock: string | null;
  user_legal_lock: string | null;
  /** No fiat exchange rate source is configured, so always null. */
  cny_price: null;
  legal_name: string;
  currency_name: string;
  symbol: string;
  market: SpotMarketInfo;
  complete: TradeDetail[];
}

/** /transaction/deal with `address`: the market's recent trades only. */
export interface SpotRecentTrades {
  complete: TradeDetail[];
}

/**
 * The spot area's part of /lever/deal: the book as [price, amount] pairs, the prices and the lever wallet;
 * the leverage area (lever/service.ts) answers the call with its own fields on top (LeverDealReply).
 */
export interface LeverDeal extends MarkIndexFields {
  lever_available: false;
  lever_transaction: { in: [string, string][]; out: [string, string][] };
  last_price: string | null;
  price_kind?: ShownPriceKind;
  ExRAte: null;
  multiple: { muit: []; share: [] };
  lever_share_limit: { min: 0; max: 0 };
  my_transaction: [];
  user_lever: string | null;
  all_levers: string | null;
  legal_name: string;
  currency_name: string;
  symbol: string;
}

/** `type` names the side as the template does: in buys, out sells; `way` is 2 for a buy, 1 for a sell. */
export type SpotSideName = 'in' | 'out';
export type SpotWay = 1 | 2;

export interface OpenOrder {
  id: number;
  create_time: string;
  time: number;
  symbol: string;
  legal_id: number;
  currency_id: number;
  currency_name: string;
  legal_name: string;
  type: SpotSideName;
  way: SpotWay;
  price: string;
  /** The order's whole quantity, what has filled, and what still rests. */
  total_number: string;
  complete_number: string;
  number: string;
  /** The order's value at its limit price, in the quote currency. */
  total_money: string;
  /** Open, partly filled, or pending: a stop-limit order waiting for a trade to reach `stop_price`. */
  status: 'open' | 'partially_filled' | 'pending';
  /** A waiting stop-limit order's stop price; null for any other order. */
  stop_price: string | null;
}

/** One fill of the caller, from the caller's side. */
export interface CompletedTrade {
  id: number;
  time: string;
  time_ms: number;
  symbol: string;
  legal_id: number;
  currency_id: number;
  currency_name: string;
  legal_name: string;
  number: string;
  price: string;
  total_money: string;
  in_fee: string;
  out_fee: string;
  type: SpotSideName;
  way: SpotWay;
  role: 'maker' | 'taker';
}

/** A page of a list in both shapes clients read: `list` (spec 01) and `data` with paging (spec 03). */
export interface PagedList<T> {
  list: T[];
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

/** A page of a list in both shapes (`list` and `data`, the same rows), with the counts of `total` rows. */
export function pagedList<T>(list: T[], page: number, perPage: number, total: number): PagedList<T> {
  return { list, ...paged(list, page, perPage, total) };
}

/** The order a placement answers with (next to the translated message). */
export interface PlacedOrder {
  id: number;
  symbol: string;
  type: SpotSideName;
  way: SpotWay;
  mode: 1 | 2;
  /**
   * Where the order stands after the placement: resting in the book, filled, cancelled unfilled, or pending
   * (a stop-limit order waiting for a trade to reach its stop).
   */
  status: 'resting' | 'filled' | 'cancelled' | 'pending';
  /** The limit price; null for a market order. */
  price: string | null;
  total_number: string;
  complete_number: string;
  number: string;
  deal_money: string;
  trade_count: number;
  /** A limit order's time in force (gtc, ioc, fok, post_only); null for a market order or a retry's answer. */
  time_in_force: 'gtc' | 'ioc' | 'fok' | 'post_only' | null;
  /** Why the rest was cancelled (funds, band, book, ioc...); null unless it was. */
  cancel_reason: 'user' | 'self_trade' | 'funds' | 'band' | 'book' | 'ioc' | null;
  /** A market order's price-protection limit: the worst price it could fill at (null: no band, or a retry). */
  band_price: string | null;
  /** A stop-limit order's stop price; null for any other order. */
  stop_price: string | null;
  /** True when the answer is to a retry with an idempotency key already used. */
  duplicate: boolean;
}

/** /transaction/in and /transaction/out: the envelope carries the order beside the message. */
export interface PlaceOrderReply {
  type: 'ok';
  message: string;
  order: PlacedOrder;
}

/** The order a revocation answers with. */
export interface RevokedOrder {
  id: number;
  filled_lots: number;
  remaining_lots: number;
}

/** Why an order ended before it filled (docs/ledger.md): the user, self-trade prevention, funds, band, book, ioc. */
export type SpotCancelReason = 'user' | 'self_trade' | 'funds' | 'band' | 'book' | 'ioc';

/** A limit order's time in force. */
export type SpotTimeInForce = 'gtc' | 'ioc' | 'fok' | 'post_only';

/** Where a listed order stands: open, partly filled, pending (a stop-limit order waiting), or ended. */
export type SpotOrderStatus =
  'open' | 'partially_filled' | 'pending' | 'filled' | 'partially_filled_cancelled' | 'cancelled';

/** One row of GET /api/orders/open: an open order of any pair. */
export interface SpotOpenOrderRow {
  id: number;
  create_time: string;
  time: number;
  symbol: string;
  legal_id: number;
  currency_id: number;
  currency_name: string;
  legal_name: string;
  type: SpotSideName;
  way: SpotWay;
  mode: 1 | 2;
  status: 'open' | 'partially_filled' | 'pending';
  price: string;
  total_number: string;
  complete_number: string;
  number: string;
  total_money: string;
  client_order_id: string | null;
  /** A stop-limit order waiting for its trigger ('pending'), else null. */
  stop_price: string | null;
}

/** One row of GET /api/orders/history: an ended order of any pair. */
export interface SpotHistoryOrderRow {
  id: number;
  create_time: string;
  time: number;
  update_time: string;
  updated: number;
  symbol: string;
  legal_id: number;
  currency_id: number;
  currency_name: string;
  legal_name: string;
  type: SpotSideName;
  way: SpotWay;
  mode: 1 | 2;
  status: 'filled' | 'partially_filled_cancelled' | 'cancelled';
  cancel_reason: SpotCancelReason | null;
  /** The limit price; null for a market order. */
  price: string | null;
  total_number: string;
  complete_number: string;
  /** Quote paid (buy) or received before fees (sell) over all fills. */
  deal_money: string;
  average_price: string | null;
  /** The fees paid, in the currency received (fee_currency). */
  fee: string;
  fee_currency: string;
  client_order_id: string | null;
}

/** POST /api/orders/cancel_all: the translated message and the cancelled orders. */
export interface CancelAllReply {
  type: 'ok';
  message: string;
  orders: { count: number; ids: number[] };
}

/** GET /api/transaction/estimate: a market order against the book as it stands. */
export interface MarketOrderEstimate {
  side: 'buy' | 'sell';
  symbol: string;
  /** Quantity that would fill. */
  number: string;
  /** Quote paid (buy) or received before fees (sell). */
  total: string;
  average_price: string | null;
  /** The last (worst) price it would fill at. */
  worst_price: string | null;
  /** The price-protection limit (null: no band). */
  band_price: string | null;
  band_percent: string | null;
  fee: string;
  fee_currency: string;
  /** Whether all of the quantity (or budget) would fill; if not, what would stop it. */
  complete: boolean;
  stop_reason: 'funds' | 'band' | 'book' | null;
}
