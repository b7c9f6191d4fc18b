// Fastify plugin for market data (whenever the engine runs): the candle, ticker and recent-trade
// projections of committed trades and their socket pushes, decorated as `fastify.marketData`. The live
// market (price sources, the index-price job, the market maker, the history backfill) is started by the
// scheduler plugin (scheduler/plugin.ts); the price record's projection is market/projection.ts.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { BinanceFeed } from './binance-feed.ts';
import type { MarketMakerConfig } from './market-maker.ts';
import type { MarketDataOptions } from './market-data.ts';
import { MarketData } from './market-data.ts';
import type { PriceSource } from './price-source.ts';
import { PriceSimulator } from './simulator.ts';
import { PriceSourcePolicy } from './price-source-kind.ts';

export { MarketData } from './market-data.ts';
export type { MarketInfo } from './market-catalog.ts';

declare module 'fastify' {
  interface FastifyInstance {
    marketData: MarketData;
    /** The price source's kind (simulated or live) and whether price-settled products take new orders. */
    priceSource: PriceSourcePolicy;
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
    unprojected: () => app.runner.unprojectedBatches(),
    logger: app.log,
    ...(depthIntervalMs === undefined ? {} : { depthIntervalMs }),
    ...(tickerIntervalMs === undefined ? {} : { tickerIntervalMs }),
    ...(candleFlushIntervalMs === undefined ? {} : { candleFlushIntervalMs }),
  });
  app.decorate('marketData', marketData);
  app.decorate(
    'priceSource',
    new PriceSourcePolicy(options.config, () => app.marketLive?.sources.map((source) => source.name)),
  );

  app.addHook('onReady', async () => {
    await marketData.start();
  });
  // onClose hooks run last-registered first: this one runs while the store is still open.
  app.addHook('onClose', async () => {
    await marketData.stop();
  });
}

export const marketDataPlugin = fp(marketPlugin, {
  name: 'market-data',
  dependencies: ['engine-runner', 'realtime'],
});
