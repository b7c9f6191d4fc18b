// Spot trading for the gateway: places and cancels orders through the engine runner, and answers the
// trading page's reads (book, balances, open orders, completed trades) in the shapes of spec 01 section 7.
//
// Money never passes through a JavaScript number: prices and quantities arrive as decimal text, become the
// engine's integer ticks and lots here (at the market's precision), and go back out as decimal text. Funds
// are checked by the engine alone, when it applies the command: there is no read-then-write anywhere.
import type {
  CancelAllOrdersReply,
  CancelOrderReply,
  CancelReason,
  Command,
  Engine,
  EngineEvent,
  OrderView,
  PlaceOrderReply,
  TimeInForce,
} from '@fairex/engine';
import { feeOf } from '@fairex/engine';
import type { Language, MessageKey, MessageParams, ShownPriceKind } from '@fairex/shared';
import { fieldName, formatDecimal, pageRows, pagedList, tryParseDecimal } from '@fairex/shared';
import type {
  CompletedTrade,
  LeverDeal,
  OpenOrder,
  PagedList,
  PlacedOrder,
  RevokedOrder,
  SpotDeal,
  TradeDetail,
} from '@fairex/shared/api/spot.ts';
import type { AuthUser } from '../auth/sessions.ts';
import type { EngineRunner } from '../engine-runner/index.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import { markIndexFields } from '../market/price-record.ts';
import { shownPriceTicks } from '../market/template-fields.ts';
import type { UnprojectedBatches } from './last-prices.ts';
import { LastPrices } from './last-prices.ts';
import type { SpotMarket } from './markets.ts';
import { formatLots, formatPrice, formatQuoteMinor, marketInfo, SpotMarkets } from './markets.ts';
import { averagePrice, estimateMarketOrder } from './estimate.ts';
import type { PublicCancelReason } from './order-views.ts';
import { publicCancelReason, publicTimeInForce } from './order-views.ts';
import type { OrderField } from './order-input.ts';
import { checkMinimumValue, parsePriceTicks, parseQuantityLots } from './order-input.ts';
import { cancelReasonOf, kindOf, sideOf, statusOf } from './order-codes.ts';
import { spotRefusal } from './refusals.ts';
import { formatTime } from './time-format.ts';

export type SpotSide = 'buy' | 'sell';
/** Spec 01 section 4: order mode 1 is market, 2 is limit. */
export type SpotMode = 1 | 2;

export interface PlaceOrderInput {
  legalId: number;
  currencyId: number;
  side: SpotSide;
  mode: SpotMode;
  /** Decimal text; required for a limit order, ignored for a market order (which takes the book's prices). */
  price: string | undefined;
  num: string;
  clientOrderId: string | undefined;
  idempotencyKey: string | undefined;
  /** Limit orders only; absent is good-till-cancelled. */
  timeInForce?: TimeInForce | undefined;
  /** Decimal text: makes a gtc limit order a stop-limit order, triggered on the last trade price. */
  stopPrice?: string | undefined;
}

/** Levels per side of the book on the trading page; enough to group by coarser ticks. */
export const BOOK_LEVELS = 100;
/** The tape keeps 27 trades (spec 01 section 9). */
export const RECENT_TRADES = 27;
export const DEFAULT_PAGE_SIZE = 10;

type SpotRunner = Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit' | 'engine'>;

/** A refusal in the request's language; the error handler answers it as {type: 'error', message}. */
function refuse(key: MessageKey, params: MessageParams = {}): never {
  throw new AppError(key, params);
}

/** Submits through the one submit-or-refuse helper with the spot area's messages for refusals. */
async function submitted<R>(runner: SpotRunner, command: Command, idempotencyKey: string | undefined) {
  // The replies are built from the outcome and the live engine: no wait for the projections.
  const { reply, duplicate, events } = await submitOrRefuse<R>(runner, command, {
    idempotencyKey,
    refusal: spotRefusal,
    awaitProjections: false,
  });
  return { reply, duplicate, events };
}

function sideName(side: SpotSide): 'in' | 'out' {
  return side === 'buy' ? 'in' : 'out';
}

export class SpotService {
  readonly markets: SpotMarkets;
  readonly lastPrices: LastPrices;
  readonly #runner: SpotRunner;
  readonly #db: Queryable;

  /** Waits until the projections hold every acknowledged command (bounded; refuses "try again"). */
  readonly #awaitProjected: () => Promise<void>;

  constructor(
    runner: SpotRunner,
    db: Queryable,
    awaitProjected: () => Promise<void> = async () => {},
    unprojected?: UnprojectedBatches,
  ) {
    this.#runner = runner;
    this.#awaitProjected = awaitProjected;
    this.#db = db;
    this.markets = new SpotMarkets(runner.engine, db);
    this.lastPrices = new LastPrices(db, unprojected);
  }

  get #engine(): Engine {
    return this.#runner.engine;
  }

  async market(legalId: number, currencyId: number): Promise<SpotMarket> {
    return (await this.markets.byPair(legalId, currencyId)) ?? refuse('spot.market_not_found');
  }

  // ------------------------------------------------------------ writes

  async placeOrder(user: AuthUser, input: PlaceOrderInput, lang: Language): Promise<PlacedOrderAnswer> {
    const market = await this.market(input.legalId, input.currencyId);
    const field = (name: OrderField) => fieldName(lang, name);
    const lots = parseQuantityLots(market, input.num, () => field('num'));
    if (!lots.ok) refuse(lots.key, lots.params);
    let command: Command;
    let priceTicks = 0;
    if (input.timeInForce !== undefined && input.mode !== 2) refuse('spot.time_in_force_invalid');
    const isStop = input.stopPrice !== undefined;
    if (isStop && (input.mode !== 2 || (input.timeInForce ?? 'gtc') !== 'gtc'))
      refuse('spot.stop_price_invalid');
    if (input.mode === 2) {
      if (input.price === undefined) refuse('validation.required', { field: field('price') });
      const price = parsePriceTicks(market, input.price, () => field('price'));
      if (!price.ok) refuse(price.key, price.params);
      const value = checkMinimumValue(market, price.value, lots.value);
      if (!value.ok) refuse(value.key, value.params);
      priceTicks = price.value;
      command = {
        type: 'placeOrder',
        owner: user.id,
        marketId: market.marketId,
        side: input.side,
        kind: 'limit',
        priceTicks,
        quantityLots: lots.value,
      };
      if (input.timeInForce !== undefined && input.timeInForce !== 'gtc') {
        command.timeInForce = input.timeInForce;
      }
      if (input.stopPrice !== undefined) {
        const stop = parsePriceTicks(market, input.stopPrice, () => field('stop_price'));
        if (!stop.ok) refuse(stop.key, stop.params);
        command.stopTicks = stop.value;
      }
    } else {
      // A market buy holds at most the whole available quote balance, the engine's default: it never spends
      // more than the user has, and releases what it did not spend.
      command = {
        type: 'placeOrder',
        owner: user.id,
        marketId: market.marketId,
        side: input.side,
        kind: 'market',
        quantityLots: lots.value,
      };
    }
    if (input.clientOrderId !== undefined) command.clientOrderId = input.clientOrderId;
    const { reply, duplicate, events } = await submitted<PlaceOrderReply>(
      this.#runner,
      command,
      input.idempotencyKey,
    );
    // A retry (the engine refuses the key reused with other parameters) gets the order as it stands now,
    // from the projection its own commit has just brought up to date, not the placement's first answer.
    if (duplicate) return this.#placedBefore(user, market, reply);
    const ended = endedOrder(events, reply.orderId);
    const cancelReason = ended.reason === undefined ? null : publicCancelReason(ended.reason);
    const order: PlacedOrder = {
      id: reply.orderId,
      symbol: market.symbol,
      type: sideName(input.side),
      way: input.side === 'buy' ? 2 : 1,
      mode: input.mode,
      status: reply.status,
      price: input.mode === 2 ? formatPrice(market, priceTicks) : null,
      total_number: formatLots(market, lots.value),
      complete_number: formatLots(market, reply.filledLots),
      number: formatLots(market, reply.remainingLots),
      deal_money: formatQuoteMinor(market, reply.quoteFilled),
      trade_count: reply.tradeCount,
      time_in_force: input.mode === 2 ? publicTimeInForce(input.timeInForce ?? 'gtc') : null,
      // Why the rest was cancelled (null unless it was): funds, band, book, or ioc.
      cancel_reason: cancelReason,
      // A market order's price-protection limit: the worst price it could fill at (null: no band).
      band_price: ended.bandTicks > 0 ? formatPrice(market, ended.bandTicks) : null,
      // A stop-limit order's stop (status 'pending' until a trade reaches it), else null.
      stop_price: command.stopTicks === undefined ? null : formatPrice(market, command.stopTicks),
      duplicate,
    };
    const text: MessageKeyWithParams =
      reply.status === 'pending' && command.stopTicks !== undefined
        ? { key: 'spot.stop_order_placed', params: { stop: formatPrice(market, command.stopTicks) } }
        : cancelReason === null
          ? placedMessage(reply)
          : restCancelledMessage(this.#engine, market, cancelReason, ended.bandTicks, lots.value, reply);
    return { text, order };
  }

  /**
   * What a market order would do against the book as it stands: how much it would fill, for how much, at
   * what average price, where its price-protection band would stop it, and why it would stop short. A buy
   * is bounded by `total` (quote) when given, else by the signed-in user's available quote balance; a sell
   * by `num`. An estimate only: the book can change before an order arrives.
   */
  async estimate(
    user: AuthUser | null,
    market: SpotMarket,
    input: { side: SpotSide; num: string | undefined; total: string | undefined },
    lang: Language,
  ) {
    let lots: number | undefined;
    if (input.num !== undefined) {
      const parsed = parseQuantityLots(market, input.num, fieldName(lang, 'num'));
      if (!parsed.ok) refuse(parsed.key, parsed.params);
      lots = parsed.value;
    }
    let budget: bigint | undefined;
    if (input.total !== undefined) {
      const parsed = tryParseDecimal(input.total.trim(), market.quoteScale);
      if (!parsed.ok || parsed.value <= 0n) {
        refuse('validation.decimal_positive', { field: fieldName(lang, 'total') });
      }
      budget = parsed.value;
    } else if (input.side === 'buy' && user !== null) {
      budget = this.#engine.ledger.balance(user.id, 'change', market.quoteCurrencyId).available;
    }
    if (lots === undefined && budget === undefined)
      refuse('validation.required', { field: fieldName(lang, 'num') });
    const depth = this.#engine.spot.depth(market.marketId, ESTIMATE_LEVELS);
    const levels = input.side === 'buy' ? depth.asks : depth.bids;
    const bandTicks = this.#engine.spot.marketBandLimit(market.marketId, input.side);
    const walk = estimateMarketOrder(levels, {
      side: input.side,
      lots,
      budget: input.side === 'buy' ? budget : undefined,
      bandTicks,
      quoteMinorPerTickLot: market.quoteMinorPerTickLot,
    });
    const average =
      walk.filledLots === 0 ? null : averagePrice(market, walk.quoteAmount, BigInt(walk.filledLots));
    const takerFeePpm = BigInt(this.#engine.spot.market(market.marketId)?.takerFeePpm ?? 0);
    // The taker's fee comes out of what it receives: base for a buy, quote for a sell.
    const feeMinor =
      input.side === 'buy'
        ? feeOf(BigInt(walk.filledLots) * market.lotBaseMinor, takerFeePpm)
        : feeOf(walk.quoteAmount, takerFeePpm);
    return {
      side: input.side,
      symbol: market.symbol,
      number: formatLots(market, walk.filledLots),
      total: formatQuoteMinor(market, walk.quoteAmount),
      average_price: average,
      worst_price: walk.worstTicks === 0 ? null : formatPrice(market, walk.worstTicks),
      band_price: bandTicks === 0 ? null : formatPrice(market, bandTicks),
      band_percent: bandPercent(this.#engine, market),
      fee: formatDecimal(feeMinor, input.side === 'buy' ? market.baseScale : market.quoteScale),
      fee_currency: input.side === 'buy' ? market.baseCode : market.quoteCode,
      // Whether all of `num` would fill, and if not, what would stop it: funds, band or book.
      complete: walk.stop === null,
      stop_reason: walk.stop,
    };
  }

  /** Cancels all of the user's open orders, of one market or everywhere, as one journaled command. */
  async cancelAll(user: AuthUser, market: SpotMarket | null) {
    const command: Command =
      market === null
        ? { type: 'cancelAllOrders', owner: user.id }
        : { type: 'cancelAllOrders', owner: user.id, marketId: market.marketId };
    const { reply } = await submitted<CancelAllOrdersReply>(this.#runner, command, undefined);
    return { count: reply.orderIds.length, ids: reply.orderIds };
  }

  /** The answer to a retried placement: the first order, in its current state. */
  async #placedBefore(
    user: AuthUser,
    market: SpotMarket,
    reply: PlaceOrderReply,
  ): Promise<PlacedOrderAnswer> {
    const row = await this.#placedOrderNow(user, reply.orderId);
    const open = row.status === 'resting' || row.status === 'pending';
    const remainingLots = open ? row.quantity_lots - row.filled_lots : 0n;
    const stopTicks = row.stopTicks;
    const current: PlaceOrderReply = {
      ...reply,
      status: row.status,
      filledLots: Number(row.filled_lots),
      remainingLots: Number(remainingLots),
      quoteFilled: row.quote_filled,
    };
    const order: PlacedOrder = {
      id: reply.orderId,
      symbol: market.symbol,
      type: sideName(row.side),
      way: row.side === 'buy' ? 2 : 1,
      mode: row.kind === 'limit' ? 2 : 1,
      status: current.status,
      price: row.kind === 'limit' ? formatPrice(market, row.price_ticks) : null,
      total_number: formatLots(market, row.quantity_lots),
      complete_number: formatLots(market, row.filled_lots),
      number: formatLots(market, remainingLots),
      deal_money: formatQuoteMinor(market, current.quoteFilled),
      // The trades the order took when it was placed, as the first answer said.
      trade_count: reply.tradeCount,
      // The projection keeps neither the time in force nor the band of the first placement.
      time_in_force: null,
      cancel_reason:
        row.cancel_reason === null || row.status !== 'cancelled'
          ? null
          : publicCancelReason(row.cancel_reason),
      band_price: null,
      stop_price: stopTicks === undefined ? null : formatPrice(market, stopTicks),
      duplicate: true,
    };
    const text: MessageKeyWithParams =
      row.kind === 'limit' && row.status === 'cancelled'
        ? { key: 'spot.order_cancelled' }
        : placedMessage(current);
    return { text, order };
  }

  /** A placed order as it stands: open in the engine, else its closed row in the spot_orders projection. */
  async #placedOrderNow(user: AuthUser, orderId: number): Promise<PlacedOrderRow> {
    const view = this.#engine.spot.order(orderId);
    if (view !== undefined && view.owner === user.id) {
      return {
        side: view.side,
        kind: view.kind,
        price_ticks: BigInt(view.priceTicks),
        quantity_lots: BigInt(view.quantityLots),
        filled_lots: BigInt(view.filledLots),
        quote_filled: view.quoteFilled,
        // A stop-limit order still waiting for its trigger is pending; any other open order rests.
        status: view.stopTicks === undefined ? 'resting' : 'pending',
        cancel_reason: null,
        stopTicks: view.stopTicks,
      };
    }
    // The order closed: its one row is written by the projector, behind the journal, and whatever closed it
    // (another user's fill, say) need not be this user's own write, so wait for everything acknowledged.
    await this.#awaitProjected();
    const { rows } = await this.#db.query<{
      side: number;
      kind: number;
      price_ticks: bigint;
      quantity_lots: bigint;
      filled_lots: bigint;
      quote_filled: string;
      status: number;
      cancel_reason: number | null;
    }>(
      `select side, kind, price_ticks, quantity_lots, filled_lots, quote_filled::text, status, cancel_reason
         from spot_orders where owner_key = $1 and order_id = $2`,
      [user.id, orderId],
    );
    const row = rows[0];
    if (row === undefined) throw new Error(`order ${orderId} of a repeated key has no projection row`);
    return {
      side: sideOf(row.side),
      kind: kindOf(row.kind),
      price_ticks: BigInt(row.price_ticks),
      quantity_lots: BigInt(row.quantity_lots),
      filled_lots: BigInt(row.filled_lots),
      quote_filled: BigInt(row.quote_filled),
      status: statusOf(row.status),
      cancel_reason: cancelReasonOf(row.cancel_reason),
      stopTicks: undefined,
    };
  }

  async cancelOrder(user: AuthUser, orderId: number, side: SpotSide | undefined): Promise<RevokedOrder> {
    // The side is only a check the template client sends along; an order of the other side is "not found".
    if (side !== undefined) {
      const view = this.#engine.spot.order(orderId);
      if (view !== undefined && view.owner === user.id && view.side !== side) refuse('spot.order_not_found');
    }
    const { reply } = await submitted<CancelOrderReply>(
      this.#runner,
      { type: 'cancelOrder', owner: user.id, orderId },
      undefined,
    );
    return { id: reply.orderId, filled_lots: reply.filledLots, remaining_lots: reply.remainingLots };
  }

  // ------------------------------------------------------------ reads

  /** The trading page's market answer: book, last price, the user's two balances, recent trades. */
  async deal(user: AuthUser | null, market: SpotMarket, timeZone: string): Promise<SpotDeal> {
    const depth = this.#engine.spot.depth(market.marketId, BOOK_LEVELS);
    const lastTicks = await this.lastPrices.get(market.marketId);
    const base =
      user === null ? undefined : this.#engine.ledger.balance(user.id, 'change', market.baseCurrencyId);
    const quote =
      user === null ? undefined : this.#engine.ledger.balance(user.id, 'change', market.quoteCurrencyId);
    return {
      in: bookSide(market, depth.bids),
      out: bookSide(market, depth.asks),
      ...this.#shownPrice(market, lastTicks),
      ...markIndexFields(this.#engine, market),
      user_currency: base === undefined ? null : formatDecimal(base.available, market.baseScale),
      user_legal: quote === undefined ? null : formatDecimal(quote.available, market.quoteScale),
      user_currency_lock: base === undefined ? null : formatDecimal(base.locked, market.baseScale),
      user_legal_lock: quote === undefined ? null : formatDecimal(quote.locked, market.quoteScale),
      // No fiat exchange rate source is configured, so no CNY price is claimed.
      cny_price: null,
      legal_name: market.quoteCode,
      currency_name: market.baseCode,
      symbol: market.symbol,
      market: marketInfo(market),
      complete: await this.recentTrades(market, timeZone),
    };
  }

  /**
   * The spot part of the leverage page's read (`/lever/deal`, spec 01 section 3), which the trading pages
   * of template-era clients also read for the book and the last price; the leverage area (lever/service.ts)
   * answers the call, taking the book and prices from here and adding its own fields. The book is the spot book as [price, amount] pairs; `user_lever` and `all_levers` are the real lever
   * wallet balances (quote and base currency) of the signed-in user, null for a visitor; `ExRAte` is null
   * because no fiat rate source is configured (as `cny_price` in `deal`).
   */
  async leverDeal(user: AuthUser | null, market: SpotMarket): Promise<LeverDeal> {
    const depth = this.#engine.spot.depth(market.marketId, BOOK_LEVELS);
    const lastTicks = await this.lastPrices.get(market.marketId);
    const pair = ([priceTicks, lots]: [number, number]): [string, string] => [
      formatPrice(market, priceTicks),
      formatLots(market, lots),
    ];
    const lever = (currencyId: number, scale: number) =>
      user === null
        ? null
        : formatDecimal(this.#engine.ledger.balance(user.id, 'lever', currencyId).available, scale);
    return {
      lever_available: false,
      lever_transaction: { in: depth.bids.map(pair), out: depth.asks.map(pair) },
      ...this.#shownPrice(market, lastTicks),
      // The price record's latest mark and index: what leverage will settle on (docs/price-record.md).
      ...markIndexFields(this.#engine, market),
      ExRAte: null,
      multiple: { muit: [], share: [] },
      lever_share_limit: { min: 0, max: 0 },
      my_transaction: [],
      user_lever: lever(market.quoteCurrencyId, market.quoteScale),
      all_levers: lever(market.baseCurrencyId, market.baseScale),
      legal_name: market.quoteCode,
      currency_name: market.baseCode,
      symbol: market.symbol,
    };
  }

  /**
   * `last_price` as the order forms of template-era clients take their default from: the last trade with a
   * user, else the recorded mark, with `price_kind` saying which (docs/template-clients.md).
   */
  #shownPrice(
    market: SpotMarket,
    lastTicks: number | undefined,
  ): { last_price: string | null; price_kind: ShownPriceKind } {
    const shown = shownPriceTicks(this.#engine, market.marketId, lastTicks);
    return {
      last_price: shown.ticks === undefined ? null : formatPrice(market, shown.ticks),
      price_kind: shown.kind,
    };
  }

  /** The latest trades of a market, newest first (trade detail: create_time, price, number). */
  async recentTrades(market: SpotMarket, timeZone: string): Promise<TradeDetail[]> {
    const { rows } = await this.#db.query<TradeRow>(
      `select trade_id, price_ticks, quantity_lots, maker_side, time_ms
         from spot_trades where market_id = $1 and with_user order by trade_id desc limit ${RECENT_TRADES}`,
      [market.marketId],
    );
    return rows.map((row) => ({
      id: Number(row.trade_id),
      create_time: formatTime(Number(row.time_ms), timeZone),
      time: Number(row.time_ms),
      price: formatPrice(market, BigInt(row.price_ticks)),
      number: formatLots(market, BigInt(row.quantity_lots)),
      // The taker's side: a resting sell met by a buy is a buy.
      way: row.maker_side === 'sell' ? 'buy' : 'sell',
    }));
  }

  /** The user's open orders, newest first, optionally of one side and of some markets. */
  async openOrders(
    user: AuthUser,
    filter: { side?: SpotSide; markets: SpotMarket[] | null },
    page: number,
    perPage: number,
    timeZone: string,
  ): Promise<PagedList<OpenOrder>> {
    const wanted = filter.markets === null ? null : new Set(filter.markets.map((market) => market.marketId));
    const orders = this.#engine.spot
      .openOrders(user.id)
      .filter(
        (order) =>
          (filter.side === undefined || order.side === filter.side) && (wanted?.has(order.marketId) ?? true),
      )
      .sort((a, b) => b.orderId - a.orderId);
    const slice = pageRows(orders, page, perPage);
    const rows = [];
    for (const order of slice) {
      const market = await this.markets.byId(order.marketId);
      if (market !== undefined) rows.push(openOrderRow(market, order, timeZone));
    }
    return pagedList(rows, page, perPage, orders.length);
  }

  /** The user's fills, newest first: each trade the user took part in, from the user's side. */
  async completedTrades(
    user: AuthUser,
    markets: SpotMarket[] | null,
    page: number,
    perPage: number,
    timeZone: string,
  ): Promise<PagedList<CompletedTrade>> {
    const marketIds = markets === null ? null : markets.map((market) => market.marketId);
    const marketClause = marketIds === null ? '' : 'and market_id = any($2::int[])';
    const params: unknown[] = marketIds === null ? [user.id] : [user.id, marketIds];
    const limit = `limit ${perPage} offset ${(page - 1) * perPage}`;
    const [{ rows }, count] = await Promise.all([
      this.#db.query<TradeRow>(
        `select * from (
           (select ${TRADE_COLUMNS} from spot_trades where maker_owner_key = $1 ${marketClause}
             order by trade_id desc limit ${page * perPage})
           union all
           (select ${TRADE_COLUMNS} from spot_trades where taker_owner_key = $1 ${marketClause}
             order by trade_id desc limit ${page * perPage})
         ) as mine order by trade_id desc ${limit}`,
        params,
      ),
      this.#db.query<{ total: bigint }>(
        `select (select count(*) from spot_trades where maker_owner_key = $1 ${marketClause})
              + (select count(*) from spot_trades where taker_owner_key = $1 ${marketClause}) as total`,
        params,
      ),
    ]);
    const list = [];
    for (const row of rows) {
      const market = await this.markets.byId(row.market_id);
      if (market !== undefined) list.push(completedRow(market, row, user.id, timeZone));
    }
    return pagedList(list, page, perPage, Number(count.rows[0]?.total ?? 0));
  }
}

/** Levels the estimate walks: the engine's depth read cap. */
const ESTIMATE_LEVELS = 1_000;

/** The orderCancelled event of a placement's own order (its reason) and its protection limit, if any. */
function endedOrder(
  events: readonly EngineEvent[],
  orderId: number,
): { reason?: CancelReason; bandTicks: number } {
  let reason: CancelReason | undefined;
  let bandTicks = 0;
  for (const event of events) {
    if (event.type === 'orderAccepted' && event.orderId === orderId) bandTicks = event.bandTicks ?? 0;
    if (event.type === 'orderCancelled' && event.orderId === orderId) reason = event.reason;
  }
  return reason === undefined ? { bandTicks } : { reason, bandTicks };
}

/** The band as a percentage text ("5%"), or null when the market has none. */
function bandPercent(engine: Engine, market: SpotMarket): string | null {
  const bandPpm = engine.spot.market(market.marketId)?.bandPpm ?? 0;
  return bandPpm === 0 ? null : `${formatDecimal(BigInt(bandPpm), 4, { trim: true })}%`;
}

function restCancelledMessage(
  engine: Engine,
  market: SpotMarket,
  reason: PublicCancelReason,
  bandTicks: number,
  lots: number,
  reply: PlaceOrderReply,
): MessageKeyWithParams {
  const params = { filled: formatLots(market, reply.filledLots), total: formatLots(market, lots) };
  switch (reason) {
    case 'funds':
      return { key: 'spot.market_rest_funds', params };
    case 'band':
      return {
        key: 'spot.market_rest_band',
        params: {
          ...params,
          band: bandPercent(engine, market) ?? '',
          limit: bandTicks > 0 ? formatPrice(market, bandTicks) : '',
        },
      };
    case 'ioc':
      return { key: 'spot.ioc_rest_cancelled', params };
    case 'book':
      return { key: 'spot.market_rest_book', params };
    default:
      return placedMessage(reply);
  }
}

function placedMessage(reply: PlaceOrderReply): MessageKeyWithParams {
  if (reply.status === 'filled') return { key: 'spot.order_filled' };
  if (reply.status === 'resting') {
    return reply.filledLots > 0 ? { key: 'spot.order_partially_filled' } : { key: 'spot.order_placed' };
  }
  return reply.filledLots > 0 ? { key: 'spot.market_partially_filled' } : { key: 'spot.market_unfilled' };
}

export interface MessageKeyWithParams {
  key: MessageKey;
  params?: MessageParams;
}

/** A placement's outcome: the message to translate and the order as the reply carries it. */
export interface PlacedOrderAnswer {
  text: MessageKeyWithParams;
  order: PlacedOrder;
}

/** Book levels with the running total of quantity from the best price outwards (`sum`). */
function bookSide(market: SpotMarket, levels: [number, number][]) {
  let total = 0n;
  return levels.map(([priceTicks, lots]) => {
    total += BigInt(lots);
    return {
      price: formatPrice(market, priceTicks),
      number: formatLots(market, lots),
      sum: formatLots(market, total),
    };
  });
}

function openOrderRow(market: SpotMarket, order: OrderView, timeZone: string): OpenOrder {
  return {
    id: order.orderId,
    create_time: formatTime(order.acceptedTimeMs, timeZone),
    time: order.acceptedTimeMs,
    symbol: market.symbol,
    legal_id: market.quoteCurrencyId,
    currency_id: market.baseCurrencyId,
    currency_name: market.baseCode,
    legal_name: market.quoteCode,
    type: sideName(order.side),
    way: order.side === 'buy' ? 2 : 1,
    price: formatPrice(market, order.priceTicks),
    /** The order's whole quantity, what has filled, and what still rests. */
    total_number: formatLots(market, order.quantityLots),
    complete_number: formatLots(market, order.filledLots),
    number: formatLots(market, order.remainingLots),
    /** The order's value at its limit price: price x total quantity, in the quote currency. */
    total_money: formatQuoteMinor(
      market,
      BigInt(order.priceTicks) * BigInt(order.quantityLots) * market.quoteMinorPerTickLot,
    ),
    /** Pending: a stop-limit order waiting for a trade to reach its stop (then `stop_price` names it). */
    status: order.stopTicks !== undefined ? 'pending' : order.filledLots > 0 ? 'partially_filled' : 'open',
    stop_price: order.stopTicks === undefined ? null : formatPrice(market, order.stopTicks),
  };
}

const TRADE_COLUMNS = `trade_id, market_id, price_ticks, quantity_lots, base_amount, quote_amount, maker_owner_key,
  taker_owner_key, maker_side, maker_fee, taker_fee, time_ms`;

/** A placed order as it stands now (open in the engine, or closed in the projection). */
interface PlacedOrderRow {
  side: SpotSide;
  kind: 'limit' | 'market';
  price_ticks: bigint;
  quantity_lots: bigint;
  filled_lots: bigint;
  quote_filled: bigint;
  status: 'resting' | 'pending' | 'filled' | 'cancelled';
  cancel_reason: CancelReason | null;
  /** A waiting stop-limit order's stop price. */
  stopTicks: number | undefined;
}

interface TradeRow {
  trade_id: bigint;
  market_id: number;
  price_ticks: bigint;
  quantity_lots: bigint;
  base_amount: string;
  quote_amount: string;
  maker_owner_key: number;
  taker_owner_key: number;
  maker_side: 'buy' | 'sell';
  maker_fee: string;
  taker_fee: string;
  time_ms: bigint;
}

function completedRow(market: SpotMarket, row: TradeRow, userId: number, timeZone: string): CompletedTrade {
  const isMaker = row.maker_owner_key === userId;
  const makerBuys = row.maker_side === 'buy';
  const side: SpotSide = isMaker === makerBuys ? 'buy' : 'sell';
  // Each side pays its fee from what it receives: the buyer in base, the seller in quote.
  const buyerFee = BigInt(makerBuys ? row.maker_fee : row.taker_fee);
  const sellerFee = BigInt(makerBuys ? row.taker_fee : row.maker_fee);
  return {
    id: Number(row.trade_id),
    time: formatTime(Number(row.time_ms), timeZone),
    time_ms: Number(row.time_ms),
    symbol: market.symbol,
    legal_id: market.quoteCurrencyId,
    currency_id: market.baseCurrencyId,
    currency_name: market.baseCode,
    legal_name: market.quoteCode,
    number: formatLots(market, row.quantity_lots),
    price: formatPrice(market, row.price_ticks),
    total_money: formatQuoteMinor(market, BigInt(row.quote_amount)),
    in_fee: formatDecimal(buyerFee, market.baseScale),
    out_fee: formatDecimal(sellerFee, market.quoteScale),
    type: sideName(side),
    way: side === 'buy' ? 2 : 1,
    role: isMaker ? 'maker' : 'taker',
  };
}
