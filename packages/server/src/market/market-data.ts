// Market data as projections of committed engine events, and their realtime feed.
//
// Every committed trade with a user on at least one side is folded into the candles of every period, the
// 24-hour tickers and the list of recent trades (a trade between two of the exchange's own accounts, which
// only a journal from before self-trade prevention covered them can hold, counts nowhere public); every batch that touched a book marks its market's depth. Pushes (spec 03 section 9) are
// coalesced: `market_depth`, `market_detail` and `kline` at most every DEPTH_INTERVAL_MS per market, and
// `daymarket` at most every TICKER_INTERVAL_MS, so a burst of orders costs a bounded number of messages.
// `market_depth` and `market_detail` carry a sequence number per symbol that grows by one per message; a
// socket that subscribes receives the current state at once with the current number (a snapshot), then the
// updates. Every message carries a whole state (ten levels, the latest trades, the current bar, the ticker),
// so a client that sees a gap in the numbers has lost nothing it cannot replace with the next message.
import { hasUserSide } from '@fairex/engine';
import type { Command, Engine, EngineEvent, PriceSampledEvent, TradeEvent } from '@fairex/engine';
import type {
  MarkIndexFields,
  PriceKindFields,
  PriceHeadPayload,
  DaymarketPayload,
  KlinePayload,
  MarketDepthPayload,
  MarketDetailPayload,
  PublicEventName,
} from '@fairex/shared';
import { DAYMARKET_CHANNEL, klineChannel, marketChannel } from '@fairex/shared';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Realtime } from '../realtime/index.ts';
import { DEFAULT_TIME_ZONE, formatTime } from '../spot/time-format.ts';
import type { Store } from '../store/index.ts';
import type { Bar, TradeFact } from './candles.ts';
import { BAR_COLUMNS, barFromRow, CandleProjection, tradesAfter } from './candles.ts';
import type { MarketInfo } from './market-catalog.ts';
import {
  changePercent,
  formatLots,
  formatPrice,
  formatQuoteMinor,
  formatBaseMinor,
  MarketCatalog,
} from './market-catalog.ts';
import type { Period } from './periods.ts';
import { markIndexFields } from './price-record.ts';
import { parsePeriod } from './periods.ts';
import type { Ticker } from './tickers.ts';
import { TICKER_WINDOW_MS, TickerBook } from './tickers.ts';
import { shownPriceTicks } from './template-fields.ts';

export const DEPTH_LEVELS = 10;
/** Trades a `market_detail` message and the snapshot carry (the web client keeps 27). */
export const RECENT_TRADES = 30;
export const DEPTH_INTERVAL_MS = 100;
export const TICKER_INTERVAL_MS = 1_000;
export const CANDLE_FLUSH_INTERVAL_MS = 1_000;
/** The bars a template-era client receives without subscribing. */
const TEMPLATE_KLINE_PERIOD: Period = '1min';
/** Every ticker is sent again this often even without trades, because the 24-hour window slides. */
const TICKER_REFRESH_MS = 60_000;

type Batch = CommittedBatch<Command, EngineEvent>;

export interface MarketDataLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export interface MarketDataOptions {
  engine: Engine;
  store: Pick<Store, 'query' | 'transaction'>;
  realtime: Pick<Realtime, 'publish' | 'onJoin' | 'setTemplateChannels'>;
  onCommitted(listener: (batch: Batch) => void): () => void;
  /**
   * The committed batches whose projections may not be written yet (the runner's unprojectedBatches): their
   * trades are folded after those read from the table, so that start() misses none of them (after a restart
   * the projector writes what the durable log gave back while the server already serves).
   */
  unprojected?: () => readonly Batch[];
  logger: MarketDataLogger;
  depthIntervalMs?: number;
  tickerIntervalMs?: number;
  candleFlushIntervalMs?: number;
  clock?: () => number;
}

type Snapshot = [event: PublicEventName, payload: unknown][];

export class MarketData {
  readonly catalog: MarketCatalog;
  readonly candles: CandleProjection;
  readonly tickers = new TickerBook();
  readonly #options: MarketDataOptions;
  readonly #clock: () => number;
  /** Newest first, at most RECENT_TRADES per market. */
  readonly #recent = new Map<number, TradeFact[]>();
  readonly #depthDirty = new Set<number>();
  readonly #detailDirty = new Set<number>();
  readonly #tickerDirty = new Set<number>();
  readonly #klineDirty = new Map<string, Bar>();
  readonly #seq = new Map<string, number>();
  /** Batches committed while start() loads; applied in order once it has. */
  #buffered: Batch[] | null = [];
  #timers: ReturnType<typeof setInterval>[] = [];
  readonly #tickListeners = new Set<() => void>();
  #stopListening: (() => void) | undefined;
  #lastTickerRefreshMs = 0;

  constructor(options: MarketDataOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.catalog = new MarketCatalog(options.engine, options.store);
    this.candles = new CandleProjection(options.store);
  }

  /** Loads the projections, folds what was committed since they were last stored, and starts pushing. */
  async start(): Promise<void> {
    this.#stopListening = this.#options.onCommitted((batch) => {
      if (this.#buffered !== null) this.#buffered.push(batch);
      else this.#onBatch(batch);
    });
    // Taken before the table is read: a trade committed before this is either in these batches or already
    // in the table; one in both is folded once (candles skip trade ids they have passed).
    const unprojected = this.#options.unprojected?.() ?? [];
    await this.catalog.reload();
    await this.candles.load();
    await this.#loadTickers();
    await this.#loadRecentTrades();
    for await (const trades of tradesAfter(this.#options.store, this.candles.lastTradeId)) {
      for (const trade of trades) this.#applyTrade(trade);
    }
    for (const batch of unprojected) this.#onBatch(batch);
    const buffered = this.#buffered ?? [];
    this.#buffered = null;
    for (const batch of buffered) this.#onBatch(batch);
    await this.candles.flush();
    this.#lastTickerRefreshMs = this.#clock();
    const every = (ms: number, task: () => void) => {
      const timer = setInterval(task, ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(this.#options.depthIntervalMs ?? DEPTH_INTERVAL_MS, () => this.#publishBooks());
    every(this.#options.tickerIntervalMs ?? TICKER_INTERVAL_MS, () => this.#publishTickers());
    every(this.#options.candleFlushIntervalMs ?? CANDLE_FLUSH_INTERVAL_MS, () => {
      this.candles.flush().catch((error: unknown) => {
        this.#options.logger.error({ err: error }, 'candles could not be stored; retrying');
      });
    });
    this.#attachSnapshots();
  }

  /** Stops pushing and stores the candles folded so far. */
  async stop(): Promise<void> {
    this.#stopListening?.();
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    await this.candles.flush();
  }

  /** The latest trades of a market, newest first. */
  recentTrades(marketId: number): readonly TradeFact[] {
    return this.#recent.get(marketId) ?? [];
  }

  /** The engine the projections read (its flags and marks for the quotation rows). */
  get engine(): Engine {
    return this.#options.engine;
  }

  ticker(marketId: number): Ticker {
    return this.tickers.ticker(marketId, this.#clock());
  }

  /** Sends every dirty push now instead of at the next interval (tests, benchmarks). */
  flushPushes(): void {
    this.#publishBooks();
    this.#publishTickers();
  }

  // ------------------------------------------------------------ folding

  #onBatch(batch: Batch): void {
    for (const { envelope, outcome } of batch.entries) {
      for (const event of outcome.events) {
        switch (event.type) {
          case 'trade':
            if (hasUserSide(event)) this.#applyTrade(tradeFact(event, envelope.timeMs));
            break;
          case 'orderRested':
          case 'orderCancelled':
            this.#depthDirty.add(event.marketId);
            break;
          case 'priceSampled':
            if (event.head) this.#publishHead(event);
            // A pair no user has traded shows its mark instead of a last price: its ticker follows the
            // samples (at most once per ticker interval), not only the minute's refresh.
            if (!this.tickers.hasTraded(event.marketId)) this.#tickerDirty.add(event.marketId);
            break;
          default:
            break;
        }
      }
    }
  }

  /** A published head goes to its market's channel as `price_head`. */
  #publishHead(event: PriceSampledEvent): void {
    const market = this.catalog.cachedById(event.marketId);
    if (market === undefined) return;
    const payload: PriceHeadPayload = {
      type: 'price_head',
      symbol: market.symbol,
      seq: event.seq,
      time: event.timeMs,
      hash: event.hash,
    };
    this.#options.realtime.publish(marketChannel(market.symbol), 'price_head', payload);
  }

  #applyTrade(trade: TradeFact): void {
    const bars = this.candles.apply(trade);
    if (bars.length === 0) return;
    this.tickers.add(trade);
    const recent = this.#recent.get(trade.marketId) ?? [];
    if (recent.length === 0 || (recent[0] as TradeFact).tradeId < trade.tradeId) {
      recent.unshift(trade);
      if (recent.length > RECENT_TRADES) recent.length = RECENT_TRADES;
      this.#recent.set(trade.marketId, recent);
    }
    this.#depthDirty.add(trade.marketId);
    this.#detailDirty.add(trade.marketId);
    this.#tickerDirty.add(trade.marketId);
    for (const bar of bars) this.#klineDirty.set(`${bar.marketId}:${bar.period}`, bar);
  }

  async #loadTickers(): Promise<void> {
    const sinceMs = this.#clock() - TICKER_WINDOW_MS - 60_000;
    const bars = await this.#options.store.query<Parameters<typeof barFromRow>[0]>(
      `select ${BAR_COLUMNS} from candles
        where source = 'trades' and period = '1min' and open_time_ms >= $1
        order by market_id, open_time_ms`,
      [sinceMs],
    );
    for (const row of bars.rows) this.tickers.addMinuteBar(barFromRow(row));
    // Each traded market's last trade with a user, found through the partial index on (market_id, trade_id):
    // the markets one after the other (the next market id above the last), then each one's newest trade. A
    // `distinct on (market_id)` over the table read and sorted every trade: 0.7 to 1 s of the store's thread
    // at 500,000 trades, on every start, with the start-up's other queries waiting behind it.
    const last = await this.#options.store.query<{ market_id: number; price_ticks: bigint; time_ms: bigint }>(
      `with recursive traded (market_id) as (
           select min(market_id) from spot_trades where with_user
           union all
           select (select min(market_id) from spot_trades where with_user and market_id > traded.market_id)
             from traded where traded.market_id is not null
         )
       select traded.market_id, newest.price_ticks, newest.time_ms
         from traded
         cross join lateral (
           select price_ticks, time_ms from spot_trades
            where with_user and market_id = traded.market_id
            order by trade_id desc limit 1
         ) newest`,
    );
    for (const row of last.rows)
      this.tickers.setLast(row.market_id, Number(row.price_ticks), Number(row.time_ms));
  }

  async #loadRecentTrades(): Promise<void> {
    for (const market of this.catalog.list()) {
      const { rows } = await this.#options.store.query<{
        trade_id: bigint;
        price_ticks: bigint;
        quantity_lots: bigint;
        base_amount: string;
        quote_amount: string;
        maker_side: 'buy' | 'sell';
        time_ms: bigint;
      }>(
        `select trade_id, price_ticks, quantity_lots, base_amount, quote_amount, maker_side, time_ms
           from spot_trades where market_id = $1 and with_user order by trade_id desc limit ${RECENT_TRADES}`,
        [market.marketId],
      );
      this.#recent.set(
        market.marketId,
        rows.map((row) => ({
          tradeId: Number(row.trade_id),
          marketId: market.marketId,
          priceTicks: Number(row.price_ticks),
          quantityLots: Number(row.quantity_lots),
          baseAmount: BigInt(row.base_amount),
          quoteAmount: BigInt(row.quote_amount),
          timeMs: Number(row.time_ms),
          takerSide: row.maker_side === 'buy' ? 'sell' : 'buy',
        })),
      );
    }
  }

  // ------------------------------------------------------------ pushes

  #nextSeq(event: string, symbol: string): number {
    const key = `${event}:${symbol}`;
    const seq = (this.#seq.get(key) ?? 0) + 1;
    this.#seq.set(key, seq);
    return seq;
  }

  #currentSeq(event: string, symbol: string): number {
    return this.#seq.get(`${event}:${symbol}`) ?? 0;
  }

  /**
   * Calls `listener` at each tick of the book publisher, before it publishes, so that other publishers of
   * the market channels (the spot book) send in the same turn. Returns the function that stops it.
   */
  onTick(listener: () => void): () => void {
    this.#tickListeners.add(listener);
    return () => this.#tickListeners.delete(listener);
  }

  #publishBooks(): void {
    for (const listener of this.#tickListeners) listener();
    const publish = this.#options.realtime.publish;
    for (const marketId of this.#depthDirty) {
      const market = this.catalog.cachedById(marketId);
      if (market === undefined) continue;
      const payload = this.depthPayload(market, this.#nextSeq('market_depth', market.symbol));
      publish(marketChannel(market.symbol), 'market_depth', payload);
    }
    this.#depthDirty.clear();
    for (const marketId of this.#detailDirty) {
      const market = this.catalog.cachedById(marketId);
      if (market === undefined) continue;
      const payload = this.detailPayload(market, this.#nextSeq('market_detail', market.symbol));
      publish(marketChannel(market.symbol), 'market_detail', payload);
    }
    this.#detailDirty.clear();
    for (const bar of this.#klineDirty.values()) {
      const market = this.catalog.cachedById(bar.marketId);
      if (market === undefined) continue;
      publish(klineChannel(market.symbol, bar.period), 'kline', this.klinePayload(market, bar));
    }
    this.#klineDirty.clear();
  }

  #publishTickers(): void {
    const nowMs = this.#clock();
    const all = nowMs - this.#lastTickerRefreshMs >= TICKER_REFRESH_MS;
    const markets = all ? this.catalog.list().map((market) => market.marketId) : [...this.#tickerDirty];
    if (all) this.#lastTickerRefreshMs = nowMs;
    this.#tickerDirty.clear();
    for (const marketId of markets) {
      const market = this.catalog.cachedById(marketId);
      if (market === undefined) continue;
      const payload = this.daymarketPayload(market, this.tickers.ticker(marketId, nowMs));
      this.#options.realtime.publish(DAYMARKET_CHANNEL, 'daymarket', payload);
    }
  }

  depthPayload(market: MarketInfo, seq: number): MarketDepthPayload {
    const depth = this.#options.engine.spot.depth(market.marketId, DEPTH_LEVELS);
    const level = ([priceTicks, lots]: [number, number]): [string, string] => [
      formatPrice(market, priceTicks),
      formatLots(market, lots),
    ];
    return {
      type: 'market_depth',
      symbol: market.symbol,
      legal_id: market.quoteCurrencyId,
      currency_id: market.baseCurrencyId,
      seq,
      bids: depth.bids.map(level),
      asks: depth.asks.map(level),
    };
  }

  detailPayload(market: MarketInfo, seq: number): MarketDetailPayload {
    return {
      type: 'market_detail',
      symbol: market.symbol,
      legal_id: market.quoteCurrencyId,
      currency_id: market.baseCurrencyId,
      seq,
      data: this.recentTrades(market.marketId).map((trade) => ({
        id: trade.tradeId,
        time: formatTime(trade.timeMs, DEFAULT_TIME_ZONE),
        time_ms: trade.timeMs,
        price: formatPrice(market, trade.priceTicks),
        amount: formatLots(market, trade.quantityLots),
        direction: trade.takerSide,
      })),
    };
  }

  klinePayload(market: MarketInfo, bar: Bar): KlinePayload {
    const ticker = this.ticker(market.marketId);
    return {
      type: 'kline',
      symbol: market.symbol,
      period: bar.period,
      time: bar.openTimeMs,
      open: formatPrice(market, bar.open),
      close: formatPrice(market, bar.close),
      high: formatPrice(market, bar.high),
      low: formatPrice(market, bar.low),
      // Only trades make volume; a bar from a price source pushes none.
      volume: formatBaseMinor(market, bar.source === 'trades' ? bar.volume : 0n),
      change: changePercent(ticker.openTicks, ticker.lastTicks),
    };
  }

  daymarketPayload(market: MarketInfo, ticker: Ticker): DaymarketPayload {
    const fields = tickerFields(market, ticker);
    // The price now: the last trade with a user, else the recorded mark (template-fields.ts).
    const prices = this.priceFields(market, ticker.lastTicks);
    return {
      type: 'daymarket',
      symbol: market.symbol,
      legal_id: market.quoteCurrencyId,
      currency_id: market.baseCurrencyId,
      ...fields,
      now_price: prices.price,
      // The template's clients read the price now as `close`.
      close: prices.price,
      ...prices,
    };
  }

  /**
   * The mark and index, and the pair's one price with its kind (docs/market-data.md): the last trade with a
   * user; where none has happened, the recorded mark, marked as such; "" and `none` before the first sample.
   */
  priceFields(market: MarketInfo, lastTradeTicks: number | undefined): MarkIndexFields & PriceKindFields {
    const shown = shownPriceTicks(this.#options.engine, market.marketId, lastTradeTicks);
    const price = shown.ticks === undefined ? '' : formatPrice(market, shown.ticks);
    return { ...this.markIndexFields(market), price, price_kind: shown.kind };
  }

  /** The market's latest mark and index price as decimal text (null before its first good sample). */
  markIndexFields(market: MarketInfo): MarkIndexFields {
    return markIndexFields(this.#options.engine, market);
  }

  // ------------------------------------------------------------ snapshots

  /** What a socket that just subscribed to `channel` receives before any update. */
  snapshot(channel: string): Snapshot {
    if (channel === DAYMARKET_CHANNEL) {
      return this.catalog
        .list()
        .map((market) => ['daymarket', this.daymarketPayload(market, this.ticker(market.marketId))]);
    }
    const [kind, symbol = '', periodName = ''] = channel.split(':');
    const market = this.catalog.cachedBySymbol(symbol);
    if (market === undefined) return [];
    if (kind === 'market') {
      return [
        ['market_depth', this.depthPayload(market, this.#currentSeq('market_depth', market.symbol))],
        ['market_detail', this.detailPayload(market, this.#currentSeq('market_detail', market.symbol))],
      ];
    }
    const period: Period | undefined = parsePeriod(periodName);
    if (kind !== 'kline' || period === undefined || period !== periodName) return [];
    const bar = this.candles.latest(market.marketId, period);
    return bar === undefined ? [] : [['kline', this.klinePayload(market, bar)]];
  }

  /**
   * After the realtime plugin has joined a socket to channels (a subscription, or a template-era client's
   * automatic channels), send the socket those channels' snapshots. A refused subscription joins nothing
   * and gets no snapshot.
   */
  #attachSnapshots(): void {
    this.#options.realtime.onJoin((socket, channels) => {
      for (const channel of channels) {
        for (const [event, data] of this.snapshot(channel)) {
          (socket.emit as (name: string, data: unknown) => boolean)(event, data);
        }
      }
    });
    this.#options.realtime.setTemplateChannels(() => this.templateChannels());
  }

  /**
   * The public channels a template-era client gets without subscribing, most wanted first: every ticker,
   * then the book and trades of each displayed market, then its 1-minute bars (the template chart's
   * default and its realtime line). The realtime plugin keeps at most TEMPLATE_CHANNELS_MAX of them.
   */
  templateChannels(): string[] {
    const markets = this.catalog.list().filter((market) => market.isDisplay);
    return [
      DAYMARKET_CHANNEL,
      ...markets.map((market) => marketChannel(market.symbol)),
      ...markets.map((market) => klineChannel(market.symbol, TEMPLATE_KLINE_PERIOD)),
    ];
  }
}

/** The ticker fields shared by `daymarket` pushes and the quotation lists. */
export function tickerFields(market: MarketInfo, ticker: Ticker) {
  const price = (ticks: number | undefined) => (ticks === undefined ? '' : formatPrice(market, ticks));
  return {
    now_price: price(ticker.lastTicks),
    change: changePercent(ticker.openTicks, ticker.lastTicks),
    high: price(ticker.highTicks),
    low: price(ticker.lowTicks),
    volume: formatBaseMinor(market, ticker.volume),
    amount: formatQuoteMinor(market, ticker.turnover),
  };
}

function tradeFact(event: TradeEvent, timeMs: number): TradeFact {
  return {
    tradeId: event.tradeId,
    marketId: event.marketId,
    priceTicks: event.priceTicks,
    quantityLots: event.quantityLots,
    baseAmount: event.baseAmount,
    quoteAmount: event.quoteAmount,
    timeMs,
    takerSide: event.makerSide === 'buy' ? 'sell' : 'buy',
  };
}
