// Turns the price sources' prices into the price record: once per interval it submits one
// `recordPriceSamples` command holding, for every market the engine knows, each source's latest price
// rounded to the market's tick with the time the source saw it (sources in name order). The engine derives
// the rest (which sources are fresh, the median index, the mark, staleness, the hash chain and the heads;
// docs/price-record.md), so a sample is journaled every interval per market even when nothing changed or no
// source answers (then it is stale), and everything that depends on the index or the mark (the market
// maker's quotes, leverage marks, seconds-contract settlement) replays exactly.
import type { Command, Engine, Outcome, PriceSourceQuote } from '@fairex/engine';
import type { MarketCatalog } from '../market/market-catalog.ts';
import { formatPrice, priceTextToTicks } from '../market/market-catalog.ts';
import type { PriceSource } from '../market/price-source.ts';

export const INDEX_INTERVAL_MS = 1_000;

/** The recipe's settings (PRICE_MIN_SOURCES, PRICE_STALE_MS, PRICE_HEAD_INTERVAL_MS). */
export interface PriceRecipeSettings {
  minSources: number;
  staleMs: number;
  headIntervalMs: number;
}

export const DEFAULT_RECIPE: PriceRecipeSettings = { minSources: 1, staleMs: 10_000, headIntervalMs: 60_000 };

export interface IndexSchedulerOptions {
  engine: Engine;
  submit(command: Command): Promise<Outcome>;
  catalog: MarketCatalog;
  sources: readonly PriceSource[];
  recipe?: PriceRecipeSettings;
  logger: { warn(object: object, message?: string): void };
  intervalMs?: number;
  clock?: () => number;
}

export class IndexScheduler {
  readonly #options: IndexSchedulerOptions;
  readonly #clock: () => number;
  readonly #recipe: PriceRecipeSettings;
  readonly #sources: readonly PriceSource[];
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> | undefined;

  constructor(options: IndexSchedulerOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#recipe = options.recipe ?? DEFAULT_RECIPE;
    this.#sources = [...options.sources].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Resumes the sources from the journaled index of every market and starts sampling. */
  start(): void {
    const markets = this.#options.catalog.list();
    for (const market of markets) {
      const index = this.#options.engine.market.indexPrice(market.marketId);
      if (index === undefined) continue;
      for (const source of this.#sources)
        source.resume(market.symbol, formatPrice(market, index.priceTicks), index.timeMs);
    }
    for (const source of this.#sources) source.start(markets.map((market) => market.symbol));
    this.#timer = setInterval(() => void this.tick(), this.#options.intervalMs ?? INDEX_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Journals one sample of every market now; resolves once it is journaled. Overlapping calls share one run. */
  tick(): Promise<void> {
    this.#running ??= this.#record().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** The command of one round: every market the engine knows, with each source's latest price. */
  command(nowMs: number): Command | undefined {
    const samples: [number, PriceSourceQuote[]][] = [];
    for (const market of this.#options.catalog.list()) {
      if (this.#options.engine.spot.market(market.marketId) === undefined) continue;
      const quotes: PriceSourceQuote[] = [];
      for (const source of this.#sources) {
        const quote = source.latest(market.symbol, nowMs);
        if (quote === undefined) continue;
        const priceTicks = priceTextToTicks(market, quote.price);
        if (priceTicks === undefined || !Number.isSafeInteger(quote.timeMs) || quote.timeMs < 0) continue;
        quotes.push([source.name, priceTicks, quote.timeMs]);
      }
      samples.push([market.marketId, quotes]);
    }
    if (samples.length === 0) return undefined;
    return {
      type: 'recordPriceSamples',
      maxAgeMs: this.#recipe.staleMs,
      minSources: this.#recipe.minSources,
      headIntervalMs: this.#recipe.headIntervalMs,
      samples,
    };
  }

  async #record(): Promise<void> {
    const command = this.command(this.#clock());
    if (command === undefined) return;
    try {
      const outcome = await this.#options.submit(command);
      if (outcome.code !== 0) this.#options.logger.warn({ code: outcome.code }, 'price samples refused');
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'price samples not recorded');
    }
  }
}
