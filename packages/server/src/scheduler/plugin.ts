// The scheduler: every job that turns time into journaled commands, registered by this one plugin. Time,
// prices and random draws reach the engine only inside commands, so that the same journal always gives the
// same state; these jobs are where the outside world's clock becomes such commands.
//
// Jobs (started when the app is asked for the live market, `live`, which main.ts turns on and tests leave
// off unless they need them):
// - the index-price job (index-prices.ts): once a second, one `recordPriceSamples` command with every
//   source's latest price for every market (docs/price-record.md);
// - the market maker (market/market-maker.ts, with MARKET_MAKER=on): its quotes, refreshed on a timer;
// - the leverage overnight fee (lever-overnight.ts): at start (catching up missed days) and after each UTC
//   midnight, one `chargeLeverOvernight` command;
// - the daily liabilities snapshot (liabilities-daily.ts): after each UTC midnight, one `captureLiabilities`
//   command, whose tree the liabilities area then builds and publishes (docs/transparency.md).
// Also started here, because it waits for the first index prices: the first-start history backfill
// (market/backfill.ts), which writes candles and journals nothing.
//
// Always started (it journals nothing until an unpaid P2P order's payment window has ended): the P2P tick
// (p2p-tick.ts), so unpaid orders are cancelled within about a second without other traffic.
//
// Journal retention (engine-runner/retention.ts) runs on a timer too but journals nothing; app.ts starts it.
// A new product area with a time-driven command (a contract's settlement, an expiry) adds its job here.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { backfillHistory, marketsWithoutHistory } from '../market/backfill.ts';
import type { MarketData, MarketPluginOptions } from '../market/index.ts';
import { createPriceSources } from '../market/index.ts';
import { MarketMaker } from '../market/market-maker.ts';
import type { PriceSource } from '../market/price-source.ts';
import { priceSourceKind } from '../market/price-source-kind.ts';
import { PriceSimulator } from '../market/simulator.ts';
import { IndexScheduler } from './index-prices.ts';
import { LeverOvernightJob } from './lever-overnight.ts';
import { LiabilitiesDailyJob } from './liabilities-daily.ts';
import { startP2pTick } from './p2p-tick.ts';
import type { P2pTickJob } from './p2p-tick.ts';

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
    /** The live market's jobs, when the app runs them (undefined otherwise). */
    marketLive: LiveMarket | undefined;
  }
}

/** The market plugin's options: the configuration, `live`, and the tests' sources and intervals. */
export type SchedulerPluginOptions = MarketPluginOptions;

async function scheduler(app: FastifyInstance, options: SchedulerPluginOptions): Promise<void> {
  app.decorate('marketLive', undefined);
  let live: LiveMarket | undefined;
  const overnight = new LeverOvernightJob(app.runner, {
    onError: (error) => app.log.error({ err: error }, 'lever overnight charge failed'),
  });
  // The liabilities area registers after the scheduler; the job looks it up when it runs.
  const liabilities = new LiabilitiesDailyJob(
    () => (app.hasDecorator('liabilities') ? app.liabilities.publisher : undefined),
    { onError: (error) => app.log.error({ err: error }, 'daily liabilities snapshot failed') },
  );
  let p2pTick: P2pTickJob | undefined;
  app.addHook('onReady', async () => {
    p2pTick = startP2pTick({
      engine: app.engine,
      submit: (command) => app.runner.submit(command),
      onError: (error) => app.log.warn({ err: error }, 'p2p tick failed'),
    });
    if (options.live) {
      live = startLive(app, options, app.marketData);
      app.marketLive = live;
      overnight.start();
      liabilities.start();
    }
  });
  // Jobs stop before the runner closes, so they never submit to a closing runner.
  app.addHook('preClose', async () => {
    await overnight.stop();
    await liabilities.stop();
    await p2pTick?.stop();
    if (live === undefined) return;
    await live.started.catch(() => {});
    await live.maker?.stop();
    await live.scheduler.stop();
    await Promise.all(live.sources.map((source) => source.close()));
  });
}

function startLive(
  app: FastifyInstance,
  options: SchedulerPluginOptions,
  marketData: MarketData,
): LiveMarket {
  const sources =
    options.source === undefined
      ? createPriceSources(options.config, app.log)
      : Array.isArray(options.source)
        ? options.source
        : [options.source];
  const source = sources[0];
  if (source === undefined) throw new Error('no price source configured');
  const [priceFields, priceLine] = startupLine(sources, options.config.demo);
  app.log.info(priceFields, priceLine);
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
    await waitForIndexPrices(app, marketData, sources, options.intervals?.indexWaitMs ?? INDEX_WAIT_MS);
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

/**
 * The start-up log line about prices: the sources, whether they are simulated and where the simulator's
 * randomness comes from, DEMO on or off, and so whether seconds contracts and leverage take new orders.
 */
export function startupLine(sources: readonly PriceSource[], demo: boolean): [object, string] {
  const names = sources.map((source) => source.name);
  const simulated = priceSourceKind(names) === 'simulated';
  const seeded = sources.some((source) => source instanceof PriceSimulator && source.seeded);
  const randomness = !simulated ? 'none' : seeded ? 'fixed SEED (predictable)' : 'random (operating system)';
  const text = simulated
    ? `price source: ${names.join(',')}, simulated prices, ${randomness}; DEMO ${demo ? 'on' : 'off'}: ` +
      (demo
        ? 'seconds contracts and leverage take orders on simulated prices (labelled "Simulated prices (demo)")'
        : 'seconds contracts and leverage refuse new orders on simulated prices')
    : `price source: ${names.join(',')}, live prices; DEMO ${demo ? 'on' : 'off'}`;
  return [{ priceSources: names, simulated, randomness, demo }, text];
}

const INDEX_WAIT_MS = 30_000;

/** Resolves when every market has an index price, or after `timeoutMs` (markets the source does not price). */
async function waitForIndexPrices(
  app: FastifyInstance,
  marketData: MarketData,
  sources: readonly PriceSource[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const priceable = (symbol: string) => sources.some((source) => source.knows?.(symbol) ?? true);
  const missing = () =>
    marketData.catalog
      .list()
      .some(
        (market) => priceable(market.symbol) && app.engine.market.indexPrice(market.marketId) === undefined,
      );
  while (missing() && Date.now() < deadline && app.runner.state === 'serving') {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const schedulerPlugin = fp(scheduler, {
  name: 'scheduler',
  dependencies: ['engine-runner', 'market-data'],
});
