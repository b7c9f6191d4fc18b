// The market maker: a bot that places orders through the engine like any user, so that a fresh installation
// has a living book that users can trade against.
//
// The `marketMaker` system owner, funded once at genesis by journaled systemFund transfers from the outside
// world, quotes a ladder of bids and asks around the journaled index price of every market (LEVELS per side,
// the first HALF_SPREAD from the index, then one STEP apart), re-quoting only the levels the index has left
// behind, within its inventory limits. It only quotes: it never takes. Every quote is a post-only order,
// which the engine refuses rather than let it trade as the taker, and the plan skips a level that would
// cross a user's resting order (a user bid above the index leaves the maker's asks below it unquoted), so a
// user's order resting across the ladder stays where it is. No other account of the exchange trades against
// it either (the engine refuses any trade between two system owners: self-trade prevention), so every trade
// it makes has a user as the taker, and the last price moves through user trades only.
// (An earlier version had the `house` take from these quotes to drag the last price after the index: wash
// trades between two of the exchange's own accounts. That is gone; the house keeps whatever it was funded
// with for its other roles, the counterparty of contracts.) MARKET_MAKER=off turns it off.
//
// Each cycle sends at most maxCommandsPerCycle commands per market, so the journal grows by a few commands
// per second per market. planCycle is a pure function of what the engine shows, for tests.
import { randomInt } from 'node:crypto';
import type { AccountOwner, Balance, Command, Engine, Outcome, OrderView } from '@fairex/engine';
import { ReasonCode, SpotResultCode } from '@fairex/engine';
import { parseDecimal } from '@fairex/shared';
import type { MarketMakerSettings } from '@fairex/shared';
import type { Store } from '../store/index.ts';
import type { MarketCatalog, MarketInfo } from './market-catalog.ts';
import { hashText } from './simulator.ts';

/** The market maker's settings; the back office shows them as they are (the shared contract's type). */
export type MarketMakerConfig = MarketMakerSettings;

export const DEFAULT_MARKET_MAKER_CONFIG: MarketMakerConfig = {
  levels: 10,
  halfSpreadPpm: 500,
  levelStepPpm: 300,
  levelNotional: '2000',
  inventoryNotional: '250000',
  maxCommandsPerCycle: 4,
  intervalMs: 1_000,
};

/**
 * What the back office may change per pair while the exchange runs (table market_maker_settings); an absent
 * field keeps the server's configuration.
 */
export interface MarketMakerPairSettings {
  enabled: boolean;
  levels?: number;
  halfSpreadPpm?: number;
  levelStepPpm?: number;
  levelNotional?: string;
}

interface PairSettingsRow {
  market_id: number;
  enabled: boolean;
  levels: number | null;
  half_spread_ppm: number | null;
  level_step_ppm: number | null;
  level_notional: string | null;
}

/** Every pair's stored market-maker settings, by market id. */
export async function loadPairSettings(
  store: Pick<Store, 'query'>,
): Promise<Map<number, MarketMakerPairSettings>> {
  const { rows } = await store.query<PairSettingsRow>(
    `select market_id, enabled, levels, half_spread_ppm, level_step_ppm, level_notional
       from market_maker_settings`,
  );
  const settings = new Map<number, MarketMakerPairSettings>();
  for (const row of rows) {
    const pair: MarketMakerPairSettings = { enabled: row.enabled };
    if (row.levels !== null) pair.levels = row.levels;
    if (row.half_spread_ppm !== null) pair.halfSpreadPpm = row.half_spread_ppm;
    if (row.level_step_ppm !== null) pair.levelStepPpm = row.level_step_ppm;
    if (row.level_notional !== null) pair.levelNotional = row.level_notional;
    settings.set(row.market_id, pair);
  }
  return settings;
}

/** The configuration of one pair: the server's, with what the back office set for the pair. */
export function pairConfig(
  config: MarketMakerConfig,
  pair: MarketMakerPairSettings | undefined,
): MarketMakerConfig {
  if (pair === undefined) return config;
  const { enabled: _enabled, ...overrides } = pair;
  return { ...config, ...overrides };
}

/** The commands that take a disabled pair's market maker out of the book: a cancel of each of its quotes. */
export function planWithdrawal(view: Pick<MakerView, 'orders'>, config: MarketMakerConfig): Command[] {
  return view.orders
    .slice(0, config.maxCommandsPerCycle)
    .map((order) => ({ type: 'cancelOrder', owner: MAKER, orderId: order.orderId }) as const);
}

export const GENESIS_MEMO = 'market maker genesis';
export const MAKER: AccountOwner = 'marketMaker';
/** The market maker's owner key in the projections (account_log, spot_trades). */
export const MAKER_OWNER_KEY = -4;
const PPM = 1_000_000n;

/** What one market looks like to the market maker at the start of a cycle. */
export interface MakerView {
  market: MarketInfo;
  minimumLots: number;
  indexTicks: number;
  /** The market maker's open orders in this market. */
  orders: readonly OrderView[];
  makerBase: Balance;
  makerQuote: Balance;
  /**
   * The best bid and ask of the book's other orders (users'), 0 when there is none: a quote at or through
   * them would trade as the taker, so the plan leaves that level out.
   */
  othersBestBidTicks: number;
  othersBestAskTicks: number;
  /** A uniform integer in [0, bound), different per call index `k`. */
  draw(k: number, bound: number): number;
}

// ---------------------------------------------------------------- planning

function scaleTicks(indexTicks: number, ppm: bigint, rounding: 'floor' | 'ceil'): number {
  const numerator = BigInt(indexTicks) * ppm;
  const quotient = numerator / PPM;
  return Number(rounding === 'ceil' && quotient * PPM < numerator ? quotient + 1n : quotient);
}

/**
 * The spacing of the ladder in ticks: the largest step of the 1-2-5 series (1, 2, 5, 10, 20, ...) not above
 * levelStepPpm of the index, at least one tick. Levels sit on multiples of it, so as the index moves the
 * quotes already resting stay on the ladder and only the levels at its ends change.
 */
export function gridTicks(indexTicks: number, config: MarketMakerConfig): number {
  const ideal = Math.max(1, scaleTicks(indexTicks, BigInt(config.levelStepPpm), 'floor'));
  let grid = 1;
  for (let power = 1; power <= ideal; power *= 10) {
    for (const factor of [1, 2, 5]) if (power * factor <= ideal) grid = power * factor;
  }
  return grid;
}

/** The ladder's prices: bids descending below the index, asks ascending above it, on the grid. */
export function ladderPrices(
  indexTicks: number,
  config: MarketMakerConfig,
): { bids: number[]; asks: number[] } {
  const grid = gridTicks(indexTicks, config);
  const half = BigInt(config.halfSpreadPpm);
  const topBid = Math.floor(scaleTicks(indexTicks, PPM - half, 'floor') / grid) * grid;
  const topAsk = Math.ceil(scaleTicks(indexTicks, PPM + half, 'ceil') / grid) * grid;
  const bids: number[] = [];
  const asks: number[] = [];
  for (let level = 0; level < config.levels; level++) {
    if (topBid - level * grid >= 1) bids.push(topBid - level * grid);
    asks.push(topAsk + level * grid);
  }
  return { bids, asks };
}

/** Lots worth about `notional` quote minor units at `priceTicks`, at least the market's minimum. */
export function lotsFor(
  view: Pick<MakerView, 'market' | 'minimumLots'>,
  priceTicks: number,
  notional: bigint,
): number {
  const perLot = BigInt(priceTicks) * view.market.quoteMinorPerTickLot;
  const lots = perLot > 0n ? Number(notional / perLot) : 0;
  return Math.max(view.minimumLots, lots);
}

function quoteMinor(market: MarketInfo, text: string): bigint {
  return parseDecimal(text, market.quoteScale);
}

/**
 * The commands of one cycle for one market, in the order they must be applied: cancels of quotes the index
 * has crossed, new levels nearest the index first, then cancels of quotes left far out. Only quotes: the
 * plan never contains an order meant to take.
 */
export function planCycle(view: MakerView, config: MarketMakerConfig): Command[] {
  const { indexTicks } = view;
  const ladder = ladderPrices(indexTicks, config);
  const innerBid = scaleTicks(indexTicks, PPM - BigInt(Math.floor(config.halfSpreadPpm / 2)), 'floor');
  const innerAsk = scaleTicks(indexTicks, PPM + BigInt(Math.floor(config.halfSpreadPpm / 2)), 'ceil');
  const urgent: Command[] = [];
  const late: Command[] = [];
  const cancel = (order: OrderView): Command => ({
    type: 'cancelOrder',
    owner: MAKER,
    orderId: order.orderId,
  });
  let freedQuote = 0n;
  let freedBase = 0n;
  const kept = { buy: [] as OrderView[], sell: [] as OrderView[] };
  const open = { buy: new Set(ladder.bids), sell: new Set(ladder.asks) };
  for (const order of view.orders) {
    const isBuy = order.side === 'buy';
    if (isBuy ? order.priceTicks > innerBid : order.priceTicks < innerAsk) {
      // The index has come too close to (or through) this quote: withdraw it first.
      urgent.push(cancel(order));
      if (isBuy) freedQuote += order.lockedAmount;
      else freedBase += order.lockedAmount;
    } else if (open[order.side].delete(order.priceTicks)) {
      kept[order.side].push(order);
    } else {
      // Beyond the ladder's end, off its grid, or a second quote on one level.
      late.push(cancel(order));
    }
  }
  const missing = {
    buy: ladder.bids.filter((price) => open.buy.has(price)),
    sell: ladder.asks.filter((price) => open.sell.has(price)),
  };
  const placements = planPlacements(view, config, missing, kept, freedQuote, freedBase);
  return [...urgent, ...placements, ...late].slice(0, config.maxCommandsPerCycle);
}

function planPlacements(
  view: MakerView,
  config: MarketMakerConfig,
  missing: { buy: number[]; sell: number[] },
  kept: { buy: OrderView[]; sell: OrderView[] },
  freedQuote: bigint,
  freedBase: bigint,
): Command[] {
  const { market, indexTicks } = view;
  const levelNotional = quoteMinor(market, config.levelNotional);
  const targetBase =
    (quoteMinor(market, config.inventoryNotional) * PPM) / priceToBaseRatio(market, indexTicks);
  const makerBaseTotal = view.makerBase.available + view.makerBase.locked;
  // Inventory limits: no more buying above twice the target holding, no more selling below a quarter of it.
  const allowBids = makerBaseTotal < 2n * targetBase;
  const allowAsks = makerBaseTotal * 4n > targetBase;
  let quoteAvailable = view.makerQuote.available + freedQuote;
  let baseAvailable = view.makerBase.available + freedBase;
  let highestBid = Math.max(0, ...kept.buy.map((order) => order.priceTicks));
  let lowestAsk = Math.min(Number.MAX_SAFE_INTEGER, ...kept.sell.map((order) => order.priceTicks));
  const crossesAsk = (price: number) => view.othersBestAskTicks > 0 && price >= view.othersBestAskTicks;
  const crossesBid = (price: number) => view.othersBestBidTicks > 0 && price <= view.othersBestBidTicks;
  const commands: Command[] = [];
  const levelOf = (side: 'buy' | 'sell', price: number) => {
    const prices =
      side === 'buy' ? ladderPrices(indexTicks, config).bids : ladderPrices(indexTicks, config).asks;
    return Math.max(0, prices.indexOf(price));
  };
  const queue: ['buy' | 'sell', number][] = [];
  for (let index = 0; index < Math.max(missing.buy.length, missing.sell.length); index++) {
    const bid = missing.buy[index];
    const ask = missing.sell[index];
    if (bid !== undefined && allowBids) queue.push(['buy', bid]);
    if (ask !== undefined && allowAsks) queue.push(['sell', ask]);
  }
  for (const [side, priceTicks] of queue) {
    const level = levelOf(side, priceTicks);
    const variation = BigInt(80 + view.draw(priceTicks, 41));
    const notional = (levelNotional * BigInt(2 + level) * variation) / 200n;
    const lots = lotsFor(view, priceTicks, notional);
    if (side === 'buy') {
      const cost = BigInt(priceTicks) * BigInt(lots) * market.quoteMinorPerTickLot;
      // Never against its own asks or a user's, never beyond its money.
      if (priceTicks >= lowestAsk || crossesAsk(priceTicks) || cost > quoteAvailable) continue;
      quoteAvailable -= cost;
      highestBid = Math.max(highestBid, priceTicks);
    } else {
      const cost = BigInt(lots) * market.lotBaseMinor;
      if (priceTicks <= highestBid || crossesBid(priceTicks) || cost > baseAvailable) continue;
      baseAvailable -= cost;
      lowestAsk = Math.min(lowestAsk, priceTicks);
    }
    commands.push({
      type: 'placeOrder',
      owner: MAKER,
      marketId: market.marketId,
      side,
      kind: 'limit',
      priceTicks,
      quantityLots: lots,
      // Refused by the engine, never filled, should a user's order arrive across it before it is applied.
      timeInForce: 'postOnly',
    });
  }
  return commands;
}

/** Quote minor units per PPM base minor units at the index: turns a quote value into base minor units. */
function priceToBaseRatio(market: MarketInfo, indexTicks: number): bigint {
  // quote minor per base minor = indexTicks x quoteMinorPerTickLot / lotBaseMinor; scaled by PPM for precision.
  const ratio = (BigInt(indexTicks) * market.quoteMinorPerTickLot * PPM) / market.lotBaseMinor;
  return ratio > 0n ? ratio : 1n;
}

/**
 * Genesis funding per currency for the market maker: for every market with an index, the inventory value in
 * base (at the index) and in quote. Amounts in minor units of each currency.
 */
export function genesisAmounts(
  markets: readonly { market: MarketInfo; indexTicks: number }[],
  config: MarketMakerConfig,
): Map<number, bigint> {
  const amounts = new Map<number, bigint>();
  const add = (currencyId: number, amount: bigint) =>
    amounts.set(currencyId, (amounts.get(currencyId) ?? 0n) + amount);
  for (const { market, indexTicks } of markets) {
    const quote = quoteMinor(market, config.inventoryNotional);
    add(market.baseCurrencyId, (quote * PPM) / priceToBaseRatio(market, indexTicks));
    add(market.quoteCurrencyId, quote);
  }
  return amounts;
}

/**
 * The best bid and ask of the orders in the book that are not the market maker's: the book's depth with the
 * maker's own lots taken out of each level. The first level with lots of others lies within one more level
 * than the maker has orders on that side, so the depth asked for is bounded by its own order count.
 */
export function othersBest(
  engine: Pick<Engine, 'spot'>,
  marketId: number,
  own: readonly OrderView[],
): { othersBestBidTicks: number; othersBestAskTicks: number } {
  const ownLots = { buy: new Map<number, number>(), sell: new Map<number, number>() };
  for (const order of own) {
    const lots = ownLots[order.side];
    lots.set(order.priceTicks, (lots.get(order.priceTicks) ?? 0) + order.remainingLots);
  }
  const depth = engine.spot.depth(marketId, Math.max(ownLots.buy.size, ownLots.sell.size) + 1);
  const first = (levels: readonly [number, number][], mine: Map<number, number>) =>
    levels.find(([priceTicks, lots]) => lots > (mine.get(priceTicks) ?? 0))?.[0] ?? 0;
  return {
    othersBestBidTicks: first(depth.bids, ownLots.buy),
    othersBestAskTicks: first(depth.asks, ownLots.sell),
  };
}

// ---------------------------------------------------------------- the bot

export interface MarketMakerOptions {
  engine: Engine;
  submit(command: Command, options?: { idempotencyKey?: string }): Promise<Outcome>;
  store: Pick<Store, 'query'>;
  catalog: MarketCatalog;
  logger: { info(object: object, message?: string): void; warn(object: object, message?: string): void };
  config?: Partial<MarketMakerConfig>;
  seed?: number;
}

export class MarketMaker {
  readonly config: MarketMakerConfig;
  readonly #options: MarketMakerOptions;
  /** A fixed seed (tests); undefined: the quotes' draws come from the operating system's random source. */
  readonly #seed: number | undefined;
  /** Currency ids whose genesis funding of the market maker is already journaled. */
  readonly #funded = new Set<number>();
  #cycleCount = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> | undefined;

  constructor(options: MarketMakerOptions) {
    this.#options = options;
    this.config = { ...DEFAULT_MARKET_MAKER_CONFIG, ...options.config };
    this.#seed = options.seed === undefined ? undefined : options.seed >>> 0;
  }

  async start(): Promise<void> {
    const { rows } = await this.#options.store.query<{ currency_id: number }>(
      `select distinct currency_id from account_log where reason = $1 and memo = $2 and owner_key = $3`,
      [ReasonCode.systemFund, GENESIS_MEMO, MAKER_OWNER_KEY],
    );
    for (const row of rows) this.#funded.add(row.currency_id);
    this.#timer = setInterval(() => {
      // A failed round (the database away for a moment, say) is logged; the next one tries again.
      this.cycle().catch((error: unknown) =>
        this.#options.logger.warn({ err: error }, 'market maker round failed; retrying'),
      );
    }, this.config.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One round over every market with an index price; overlapping calls share one round. */
  cycle(): Promise<void> {
    this.#running ??= this.#cycle().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #cycle(): Promise<void> {
    const engine = this.#options.engine;
    const markets = this.#options.catalog
      .list()
      .map((market) => ({ market, indexTicks: engine.market.indexPrice(market.marketId)?.priceTicks }))
      .filter((entry): entry is { market: MarketInfo; indexTicks: number } => entry.indexTicks !== undefined);
    if (markets.length === 0) return;
    await this.#fund(markets);
    this.#cycleCount++;
    const pairs = await loadPairSettings(this.#options.store);
    const outcomes: Promise<void>[] = [];
    for (const { market, indexTicks } of markets) {
      if (!this.#isFunded(market)) continue;
      const view = this.#view(market, indexTicks);
      const pair = pairs.get(market.marketId);
      const config = pairConfig(this.config, pair);
      let commands: Command[];
      try {
        commands = pair?.enabled === false ? planWithdrawal(view, config) : planCycle(view, config);
      } catch (error) {
        // A setting this pair cannot use (a value finer than its quote currency, say): skip the pair, not the
        // whole market maker.
        this.#options.logger.warn(
          { err: error, marketId: market.marketId },
          'market maker cannot plan this pair',
        );
        continue;
      }
      for (const command of commands) {
        // Submitted without waiting: each is applied at once, in this order; only durability is awaited.
        outcomes.push(
          this.#options.submit(command).then(
            (outcome) => {
              // A quote that a user's order arriving first would have made a taker is refused: expected.
              if (outcome.code !== 0 && outcome.code !== SpotResultCode.postOnlyWouldTake)
                this.#options.logger.warn(
                  { command: command.type, code: outcome.code },
                  'market maker command refused',
                );
            },
            (error: unknown) => this.#options.logger.warn({ err: error }, 'market maker command failed'),
          ),
        );
      }
    }
    await Promise.all(outcomes);
  }

  #isFunded(market: MarketInfo): boolean {
    return this.#funded.has(market.baseCurrencyId) && this.#funded.has(market.quoteCurrencyId);
  }

  /** Journals the genesis funding of every currency not funded yet, once per currency. */
  async #fund(markets: { market: MarketInfo; indexTicks: number }[]): Promise<void> {
    const owner = 'marketMaker';
    for (const [currencyId, amount] of genesisAmounts(markets, this.config)) {
      if (this.#funded.has(currencyId) || amount <= 0n) continue;
      const outcome = await this.#options.submit(
        { type: 'systemFund', owner, currencyId, amount, memo: GENESIS_MEMO },
        { idempotencyKey: `genesis:${owner}:${currencyId}` },
      );
      if (outcome.code !== 0) {
        this.#options.logger.warn({ owner, currencyId, code: outcome.code }, 'genesis funding refused');
        continue;
      }
      this.#funded.add(currencyId);
      this.#options.logger.info(
        { owner, currencyId, amount: amount.toString() },
        'genesis funding journaled',
      );
    }
  }

  #view(market: MarketInfo, indexTicks: number): MakerView {
    const engine = this.#options.engine;
    const cycle = this.#cycleCount;
    const seed = this.#seed;
    const stream = hashText(`maker:${market.symbol}`) ^ (seed ?? 0);
    const orders = engine.spot.openOrders(MAKER, market.marketId);
    return {
      ...othersBest(engine, market.marketId, orders),
      market,
      minimumLots: engine.spot.market(market.marketId)?.minimumLots ?? 1,
      indexTicks,
      orders,
      makerBase: engine.ledger.balance(MAKER, 'change', market.baseCurrencyId),
      makerQuote: engine.ledger.balance(MAKER, 'change', market.quoteCurrencyId),
      draw: (k, bound) =>
        seed === undefined ? randomInt(bound) : hashText(`${stream}:${cycle}:${k}`) % bound,
    };
  }
}
