// Turns the price source's prices into journaled index prices: once per interval, for every market the
// source prices, the price rounded to the market's tick is recorded with recordIndexPrice when it differs
// from the index the engine holds. The index is an engine input like any command, so everything that
// depends on it (the market maker's quotes, leverage marks, seconds-contract settlement) replays exactly.
import type { Command, Engine, Outcome } from '@fairex/engine';
import type { MarketCatalog, MarketInfo } from './market-catalog.ts';
import { formatPrice, priceTextToTicks } from './market-catalog.ts';
import type { PriceSource } from './price-source.ts';

export const INDEX_INTERVAL_MS = 1_000;

export interface IndexSchedulerOptions {
  engine: Engine;
  submit(command: Command): Promise<Outcome>;
  catalog: MarketCatalog;
  source: PriceSource;
  logger: { warn(object: object, message?: string): void };
  intervalMs?: number;
  clock?: () => number;
}

export class IndexScheduler {
  readonly #options: IndexSchedulerOptions;
  readonly #clock: () => number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> | undefined;
  #markets: MarketInfo[] = [];

  constructor(options: IndexSchedulerOptions) {
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
  }

  /** Resumes the source from the journaled index of every market and starts recording. */
  start(): void {
    this.#markets = this.#options.catalog.list();
    for (const market of this.#markets) {
      const index = this.#options.engine.indexPrice(market.marketId);
      if (index !== undefined) {
        this.#options.source.resume(market.symbol, formatPrice(market, index.priceTicks), index.timeMs);
      }
    }
    this.#options.source.start(this.#markets.map((market) => market.symbol));
    this.#timer = setInterval(() => void this.tick(), this.#options.intervalMs ?? INDEX_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Records every changed index price now; resolves once they are journaled. Overlapping calls share one run. */
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

  async #record(): Promise<void> {
    const nowMs = this.#clock();
    const submissions: Promise<void>[] = [];
    for (const market of this.#markets) {
      const quote = this.#options.source.latest(market.symbol, nowMs);
      if (quote === undefined) continue;
      const priceTicks = priceTextToTicks(market, quote.price);
      if (priceTicks === undefined) continue;
      if (this.#options.engine.indexPrice(market.marketId)?.priceTicks === priceTicks) continue;
      const command: Command = { type: 'recordIndexPrice', marketId: market.marketId, priceTicks };
      submissions.push(
        this.#options.submit(command).then(
          (outcome) => {
            if (outcome.code !== 0)
              this.#options.logger.warn(
                { marketId: market.marketId, code: outcome.code },
                'index price refused',
              );
          },
          (error: unknown) =>
            this.#options.logger.warn({ err: error, marketId: market.marketId }, 'index price not recorded'),
        ),
      );
    }
    await Promise.all(submissions);
  }
}
