// The markets as market data needs them: the engine's exact conversion factors (ticks, lots, minor units)
// joined with the catalogue's display settings (symbol, whether shown, order, logo, leverage settings).
// Only markets the engine knows are listed: what the engine does not trade has no market data.
import type { Engine } from '@fairex/engine';
import { divideRounded, formatDecimal, pow10, rescale } from '@fairex/shared';
import type { Queryable } from '../store/index.ts';

export interface MarketInfo {
  marketId: number;
  /** "BASE/QUOTE". */
  symbol: string;
  baseCurrencyId: number;
  quoteCurrencyId: number;
  baseCode: string;
  quoteCode: string;
  baseScale: number;
  quoteScale: number;
  /** Decimals of a price. */
  priceScale: number;
  /** One tick in price units (10^-priceScale quote per base). */
  tickUnits: bigint;
  lotBaseMinor: bigint;
  quoteMinorPerTickLot: bigint;
  /** Decimals a quantity needs (the lot size's own decimals). */
  quantityScale: number;
  /** Smallest order in lots, as the engine enforces it. */
  minimumLots: number;
  /** Smallest order value a limit order must reach, in quote minor units (0: none). */
  minNotionalMinor: bigint;
  /** The engine's current fees; lookups refresh them, since an operator's change reaches only the engine. */
  makerFeePpm: number;
  takerFeePpm: number;
  isDisplay: boolean;
  displayOrder: number;
  logo: string | null;
  /** Base minor units per leveraged lot (the specifications' lever_share_num). */
  leverShareSize: bigint;
  leverSpreadPpm: number;
  leverFeePpm: number;
}

interface MarketRow {
  id: number;
  price_scale: number;
  is_display: boolean;
  display_order: number;
  logo: string | null;
  min_notional: bigint | string;
  lever_share_size: bigint;
  lever_spread_ppm: number;
  lever_fee_ppm: number;
}

const RELOAD_AFTER_MISS_MS = 1_000;

export class MarketCatalog {
  readonly #engine: Engine;
  readonly #db: Queryable;
  #byId = new Map<number, MarketInfo>();
  #bySymbol = new Map<string, MarketInfo>();
  #byPair = new Map<string, MarketInfo>();
  #loading: Promise<void> | undefined;
  #loadedAtMs = Number.NEGATIVE_INFINITY;

  constructor(engine: Engine, db: Queryable) {
    this.#engine = engine;
    this.#db = db;
  }

  /** Every market in display order (loaded by the last reload). */
  list(): MarketInfo[] {
    return [...this.#byId.values()]
      .map((market) => this.#withLiveFees(market))
      .sort((a, b) => a.displayOrder - b.displayOrder || a.marketId - b.marketId);
  }

  cachedById(marketId: number): MarketInfo | undefined {
    return this.#byId.get(marketId);
  }

  cachedBySymbol(symbol: string): MarketInfo | undefined {
    return this.#bySymbol.get(symbol);
  }

  async byId(marketId: number): Promise<MarketInfo | undefined> {
    return this.#find(() => this.#byId.get(marketId));
  }

  /** "BTC/USDT"; also "btc_usdt", "BTC-USDT" and "btcusdt". */
  async bySymbol(text: string): Promise<MarketInfo | undefined> {
    const normal = text.trim().toUpperCase().replace(/[_-]/, '/');
    return this.#find(() => this.#bySymbol.get(normal) ?? this.#bySymbol.get(this.#joined(normal)));
  }

  /** The market trading `currencyId` (base) against `legalId` (quote), as the web client names them. */
  async byPair(legalId: number, currencyId: number): Promise<MarketInfo | undefined> {
    return this.#find(() => this.#byPair.get(`${legalId}:${currencyId}`));
  }

  /** "BTCUSDT" -> "BTC/USDT" when exactly one market spells that way. */
  #joined(text: string): string {
    if (text.includes('/')) return text;
    const matches = [...this.#bySymbol.keys()].filter((symbol) => symbol.replace('/', '') === text);
    return matches.length === 1 ? (matches[0] as string) : text;
  }

  async #find(lookup: () => MarketInfo | undefined): Promise<MarketInfo | undefined> {
    const found = lookup();
    if (found !== undefined) return this.#withLiveFees(found);
    if (Date.now() - this.#loadedAtMs < RELOAD_AFTER_MISS_MS) return undefined;
    await this.reload();
    const reloaded = lookup();
    return reloaded === undefined ? undefined : this.#withLiveFees(reloaded);
  }

  /**
   * Fees change through a journaled command (an operator's setMarketFees) without the catalogue being
   * reloaded, and the engine is what charges them: take them from the engine on every lookup so that what
   * a page shows is what the next trade pays.
   */
  #withLiveFees(market: MarketInfo): MarketInfo {
    const live = this.#engine.spot.market(market.marketId);
    if (live !== undefined) {
      market.makerFeePpm = live.makerFeePpm;
      market.takerFeePpm = live.takerFeePpm;
    }
    return market;
  }

  /** Every market in display order, loading the catalogue first if it never was. */
  async listLoaded(): Promise<MarketInfo[]> {
    if (this.#byId.size === 0) await this.reload();
    return this.list();
  }

  /** Reloads when the last load is older than `maxAgeMs` (display settings an operator may have changed). */
  async refresh(maxAgeMs: number): Promise<void> {
    if (Date.now() - this.#loadedAtMs > maxAgeMs) await this.reload();
  }

  reload(): Promise<void> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #load(): Promise<void> {
    const { rows } = await this.#db.query<MarketRow>(
      `select m.id, m.price_scale, m.is_display, m.display_order, c.logo, m.min_notional, m.lever_share_size,
              m.lever_spread_ppm, m.lever_fee_ppm
         from markets m join currencies c on c.id = m.base_currency_id`,
    );
    const rowsById = new Map(rows.map((row) => [row.id, row]));
    const byId = new Map<number, MarketInfo>();
    const bySymbol = new Map<string, MarketInfo>();
    const byPair = new Map<string, MarketInfo>();
    for (const view of this.#engine.spot.markets()) {
      const info = describe(this.#engine, view.marketId, rowsById.get(view.marketId));
      if (info === undefined) continue;
      byId.set(info.marketId, info);
      bySymbol.set(info.symbol, info);
      byPair.set(`${info.quoteCurrencyId}:${info.baseCurrencyId}`, info);
    }
    this.#byId = byId;
    this.#bySymbol = bySymbol;
    this.#byPair = byPair;
    this.#loadedAtMs = Date.now();
  }
}

function describe(engine: Engine, marketId: number, row: MarketRow | undefined): MarketInfo | undefined {
  const market = engine.spot.market(marketId);
  if (market === undefined) return undefined;
  const base = engine.ledger.currency(market.baseCurrencyId);
  const quote = engine.ledger.currency(market.quoteCurrencyId);
  if (base === undefined || quote === undefined) return undefined;
  const [whole = '0', fraction = ''] = market.tickSize.split('.');
  return {
    marketId,
    symbol: `${base.code}/${quote.code}`,
    baseCurrencyId: base.currencyId,
    quoteCurrencyId: quote.currencyId,
    baseCode: base.code,
    quoteCode: quote.code,
    baseScale: base.scale,
    quoteScale: quote.scale,
    priceScale: fraction.length,
    tickUnits: BigInt(whole + fraction),
    lotBaseMinor: market.lotBaseMinor,
    quoteMinorPerTickLot: market.quoteMinorPerTickLot,
    quantityScale: significantDecimals(market.lotBaseMinor, base.scale),
    minimumLots: market.minimumLots,
    minNotionalMinor: row === undefined ? 0n : BigInt(row.min_notional),
    makerFeePpm: market.makerFeePpm,
    takerFeePpm: market.takerFeePpm,
    isDisplay: row?.is_display ?? true,
    displayOrder: row?.display_order ?? marketId,
    logo: row?.logo ?? null,
    leverShareSize: row === undefined ? market.lotBaseMinor : BigInt(row.lever_share_size),
    leverSpreadPpm: row?.lever_spread_ppm ?? 0,
    leverFeePpm: row?.lever_fee_ppm ?? 0,
  };
}

/** The fewest decimals that show every multiple of `minor` at `scale` exactly (100,000 at 8 -> 3). */
function significantDecimals(minor: bigint, scale: number): number {
  let decimals = scale;
  let value = minor;
  while (decimals > 0 && value % 10n === 0n) {
    value /= 10n;
    decimals--;
  }
  return decimals;
}

// ---------------------------------------------------------------- conversions at the edge

/** A price in ticks as text at the market's price scale ("67000.00"). */
export function formatPrice(market: MarketInfo, priceTicks: number | bigint): string {
  return formatDecimal(BigInt(priceTicks) * market.tickUnits, market.priceScale);
}

/** A quantity in lots as base-currency text at the market's quantity scale. */
export function formatLots(market: MarketInfo, lots: number | bigint): string {
  return formatBaseMinor(market, BigInt(lots) * market.lotBaseMinor);
}

/**
 * Base minor units at the market's quantity scale (whole lots are exact; a remainder, such as a fee, rounds
 * down), or with `exact` at the base currency's full scale.
 */
export function formatBaseMinor(market: MarketInfo, minor: bigint, exact = false): string {
  if (exact) return formatDecimal(minor, market.baseScale);
  return formatDecimal(minor / pow10(market.baseScale - market.quantityScale), market.quantityScale);
}

/** Quote minor units at the quote currency's scale. */
export function formatQuoteMinor(market: MarketInfo, minor: bigint): string {
  return formatDecimal(minor, market.quoteScale);
}

/**
 * A decimal price text at any scale (a price source's) as the nearest whole tick, half up; undefined when
 * the text is no positive plain decimal or rounds to zero ticks.
 */
export function priceTextToTicks(market: MarketInfo, text: string): number | undefined {
  const match = /^(\d{1,20})(?:\.(\d{1,30}))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[2] ?? '';
  const units = BigInt((match[1] ?? '') + fraction);
  const priceUnits = rescale(units, fraction.length, market.priceScale, 'halfUp');
  const ticks = divideRounded(priceUnits, market.tickUnits, 'halfUp');
  return ticks > 0n && ticks <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(ticks) : undefined;
}

/** A non-negative plain decimal text (any number of decimals) as minor units at `scale`, rounded down. */
export function decimalTextToMinor(text: string, scale: number): bigint | undefined {
  const match = /^(\d{1,30})(?:\.(\d{1,30}))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[2] ?? '';
  return rescale(BigInt((match[1] ?? '') + fraction), fraction.length, scale, 'down');
}

/** Percent change from `fromTicks` to `toTicks` at two decimals, half up ("-1.25"); "0.00" from nothing. */
export function changePercent(fromTicks: number | undefined, toTicks: number | undefined): string {
  if (fromTicks === undefined || toTicks === undefined || fromTicks <= 0) return '0.00';
  const hundredths = divideRounded(BigInt(toTicks - fromTicks) * 10_000n, BigInt(fromTicks), 'halfUp');
  return formatDecimal(hundredths, 2);
}

/** Parts per million as a percent text, trimmed ("500" ppm -> "0.05"). */
export function ppmPercent(ppm: number): string {
  return formatDecimal(BigInt(ppm), 4, { trim: true });
}
