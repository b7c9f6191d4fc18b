// Fastify plugin for market data. Always (whenever the engine runs): the candle, ticker and recent-trade
// projections of committed trades and their socket pushes, decorated as `fastify.marketData`. When asked
// (`live`, which main.ts turns on and tests leave off unless they need it): the price source, the index
// scheduler that journals its prices, the first-start history backfill and, with MARKET_MAKER=on, the
// market maker, decorated as `fastify.marketLive`.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { backfillHistory, marketsWithoutHistory } from './backfill.ts';
import { BinanceFeed } from './binance-feed.ts';
import { IndexScheduler } from './index-scheduler.ts';
import type { MarketMakerConfig } from './market-maker.ts';
import { MarketMaker } from './market-maker.ts';
import type { MarketDataOptions } from './market-data.ts';
import { MarketData } from './market-data.ts';
import type { PriceSource } from './price-source.ts';
import { PriceSimulator } from './simulator.ts';

export { MarketData } from './market-data.ts';
export type { MarketInfo } from './market-catalog.ts';

export interface LiveMarket {
  /** The first configured source: the one history is backfilled from. */
  readonly source: PriceSource;
  /** Every configured source: the index is their median. */
  readonly sources: readonly PriceSource[];
  readonly scheduler: IndexScheduler;
  readonly maker: MarketMaker | undefined;
  /** Resolves when the first index prices are journaled, history is backfilled and the bots run. */
  readonly started: Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    marketData: MarketData;
    marketLive: LiveMarket | undefined;
  }
}

export interface MarketPluginOptions {
  config: Config;
  live?: boolean;
  /** A source, or sources, to use instead of the configured ones (tests). */
  source?: PriceSource | PriceSource[];
  maker?: Partial<MarketMakerConfig>;
  /** Interval overrides (tests, benchmarks). */
  intervals?: Pick<MarketDataOptions, 'depthIntervalMs' | 'tickerIntervalMs' | 'candleFlushIntervalMs'> & {
    indexMs?: number;
    /** PRICE_HEAD_INTERVAL_MS instead of the configured one. */
    headMs?: number;
    /** How long the backfill waits for every market's first index price (default 30 s). */
    indexWaitMs?: number;
  };
}

export function createPriceSources(config: Config, logger: FastifyInstance['log']): PriceSource[] {
  return config.priceSources.map((name) =>
    name === 'binance'
      ? new BinanceFeed({ streamUrl: config.priceFeedUrl, restUrl: config.priceHistoryUrl, logger })
      : new PriceSimulator({ seed: config.seed }),
  );
}

async function marketPlugin(app: FastifyInstance, options: MarketPluginOptions): Promise<void> {
  const { depthIntervalMs, tickerIntervalMs, candleFlushIntervalMs } = options.intervals ?? {};
  const marketData = new MarketData({
    engine: app.engine,
    store: app.store,
    realtime: app.realtime,
    onCommitted: (listener) => app.runner.onCommitted(listener),
    logger: app.log,
    ...(depthIntervalMs === undefined ? {} : { depthIntervalMs }),
    ...(tickerIntervalMs === undefined ? {} : { tickerIntervalMs }),
    ...(candleFlushIntervalMs === undefined ? {} : { candleFlushIntervalMs }),
  });
  app.decorate('marketData', marketData);
  app.decorate('marketLive', undefined);
  let live: LiveMarket | undefined;

  app.addHook('onReady', async () => {
    await marketData.start();
    if (options.live) {
      live = startLive(app, options, marketData);
      app.marketLive = live;
    }
  });
  // Bots stop before the runner closes, so they never submit to a closing runner.
  app.addHook('preClose', async () => {
    if (live === undefined) return;
    await live.started.catch(() => {});
    await live.maker?.stop();
    await live.scheduler.stop();
    await Promise.all(live.sources.map((source) => source.close()));
  });
  // onClose hooks run last-registered first: this one runs while the store is still open.
  app.addHook('onClose', async () => {
    await marketData.stop();
  });
}

function startLive(app: FastifyInstance, options: MarketPluginOptions, marketData: MarketData): LiveMarket {
  const sources =
    options.source === undefined
      ? createPriceSources(options.config, app.log)
      : Array.isArray(options.source)
        ? options.source
        : [options.source];
  const source = sources[0];
  if (source === undefined) throw new Error('no price source configured');
  const submit = (
    command: Parameters<typeof app.runner.submit>[0],
    submitOptions?: { idempotencyKey?: string },
  ) => app.runner.submit(command, submitOptions);
  const scheduler = new IndexScheduler({
    engine: app.engine,
    submit,
    catalog: marketData.catalog,
    sources,
    recipe: {
      minSources: options.config.priceMinSources,
      staleMs: options.config.priceStaleMs,
      headIntervalMs: options.intervals?.headMs ?? options.config.priceHeadIntervalMs,
    },
    logger: app.log,
    ...(options.intervals?.indexMs === undefined ? {} : { intervalMs: options.intervals.indexMs }),
  });
  const maker = options.config.marketMaker
    ? new MarketMaker({
        engine: app.engine,
        submit,
        store: app.store,
        catalog: marketData.catalog,
        logger: app.log,
        config: options.maker,
        seed: options.config.seed,
      })
    : undefined;
  scheduler.start();
  const started = (async () => {
    await scheduler.tick();
    // A live feed needs a moment for its first prices; the backfill ends at the first index of each market.
    await waitForIndexPrices(app, marketData, options.intervals?.indexWaitMs ?? INDEX_WAIT_MS);
    // Which markets need history, and where it ends, are settled before the market maker's first quote (and
    // so before a user can trade with it); then it starts at once and the backfill, which may take a while,
    // runs beside it.
    const markets = await marketsWithoutHistory(app.store, marketData.catalog);
    const untilMs = Date.now();
    await maker?.start();
    await backfillHistory({
      store: app.store,
      engine: app.engine,
      markets,
      source,
      untilMs,
      logger: app.log,
    });
  })();
  started.catch((error: unknown) => app.log.error({ err: error }, 'live market data did not start'));
  return { source, sources, scheduler, maker, started };
}

const INDEX_WAIT_MS = 30_000;

/** Resolves when every market has an index price, or after `timeoutMs` (markets the source does not price). */
async function waitForIndexPrices(
  app: FastifyInstance,
  marketData: MarketData,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const missing = () =>
    marketData.catalog.list().some((market) => app.engine.market.indexPrice(market.marketId) === undefined);
  while (missing() && Date.now() < deadline && app.runner.state === 'serving') {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const marketDataPlugin = fp(marketPlugin, {
  name: 'market-data',
  dependencies: ['engine-runner', 'realtime'],
});
