// The application as a Fastify plugin: external plugins first, then the app's own plugins, then the product
// areas (each a plugin that decorates the app with its services), then the routes,
// then the web app (whose not-found handler answers everything no route took).
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import Fastify, { LogController } from 'fastify';
import fp from 'fastify-plugin';
import { apiError, translate } from '@fairex/shared';
import type { Config } from './config.ts';
import { requestLanguage } from './http/language.ts';
import externalPlugins from './plugins/external/index.ts';
import authPlugin from './plugins/app/auth.ts';
import errorsPlugin from './plugins/app/errors.ts';
import i18nPlugin from './plugins/app/i18n.ts';
import storePlugin from './plugins/app/store.ts';
import webAppPlugin from './plugins/app/web-app.ts';
import realtimePlugin from './realtime/index.ts';
import {
  engineRunnerPlugin,
  exchangeRunnerSettings,
  scheduleJournalRetention,
} from './engine-runner/index.ts';
import { exchangeProjectors } from './exchange-runner.ts';
import { marketDataPlugin } from './market/index.ts';
import { microAreaPlugin } from './micro/plugin.ts';
import { productsAreaPlugin } from './products/plugin.ts';
import { p2pAreaPlugin } from './p2p/plugin.ts';
import { liabilitiesAreaPlugin } from './liabilities/plugin.ts';
import type { MarketPluginOptions } from './market/index.ts';
import { schedulerPlugin } from './scheduler/plugin.ts';
import { syncEngineCatalog } from './services/engine-catalog.ts';
import accountsPlugin from './accounts/plugin.ts';
import { adminAreaPlugin } from './admin/plugin.ts';
import { apiKeysAreaPlugin } from './api-keys/plugin.ts';
import routes from './routes/index.ts';
import { spotAreaPlugin } from './spot/plugin.ts';
import { leverAreaPlugin } from './lever/plugin.ts';
import { statsAreaPlugin } from './stats/plugin.ts';
import { walletsAreaPlugin } from './wallets/plugin.ts';
import type { Store } from './store/index.ts';
import { secretBoxFor } from './api-keys/sealed-secrets.ts';
import { hasLogKey, openLogKey } from './transparency/log-key.ts';
import type { LogKeyRef } from './transparency/log-key.ts';
import { transparencyPlugin } from './transparency/plugin.ts';
import type { DurableLogReadAhead } from './engine-runner/durable-log-files.ts';

export interface AppOptions {
  config: Config;
  /** A store the caller opened (tests); the app then neither opens nor closes one. */
  store?: Store;
  /** Seed demo currencies and markets when missing (default true). */
  seed?: boolean;
  /**
   * With DEMO=on, seed the first start's demo data: the flagged demo accounts (the P2P merchant), the demo
   * products and the house capital of leverage and the flash desk (docs/operations.md, "Demo data").
   * Default: on a live server with the seeded catalogue (npm start); route tests pass true to see a first
   * start. DEMO=off seeds nothing whatever this says.
   */
  demoData?: boolean;
  /** Session lookup cache in milliseconds (default 2000; 0 asks the store on every request). */
  sessionCacheMs?: number;
  /** Redis channel prefix for the socket.io adapter (default "socket.io"). */
  redisKey?: string;
  /**
   * Recover and run the engine (default true). Tests of the HTTP plumbing alone may turn it off; every
   * route that moves money needs it.
   */
  engine?: boolean;
  /**
   * Called when the engine runner stops after a failed commit (crash-only). The command-line server exits
   * so that its supervisor restarts it and recovery replays the journal; the default only logs.
   */
  onEngineFatal?: (error: Error) => void;
  /**
   * Run live market data: the price source, journaled index prices, the first-start history backfill and,
   * with MARKET_MAKER=on, the market maker (default false; main.ts turns it on). Candles, tickers and the
   * market pushes run whenever the engine does.
   */
  liveMarket?: boolean;
  /** Overrides for market data (tests and benchmarks): a price source, market-maker settings, intervals. */
  market?: Omit<MarketPluginOptions, 'config' | 'live'>;
  /**
   * Start the transparency log at start when the engine's log is not started (journals `startLog` with
   * LOG_ORIGIN and LOG_CHECKPOINT_INTERVAL_MS). Default: with the live market (npm start); tests opt in.
   */
  transparencyLog?: boolean;
  /** The command clock (default Date.now): tests of time-driven rules (the P2P payment window) move it. */
  clock?: () => number;
  /** Test knob: the projector stage waits this long before each transaction, so that it lags (default 0). */
  projectorDelayMs?: number;
  /**
   * The embedded store's durable log, read while the store opened (main.ts starts it once the data folder's
   * lock is held); the runner opens the log from it instead of reading the files again.
   */
  durableLogReadAhead?: DurableLogReadAhead;
}

export const BODY_LIMIT_BYTES = 64 * 1024;

async function app(instance: FastifyInstance, options: AppOptions): Promise<void> {
  await instance.register(externalPlugins, { corsOrigins: options.config.corsOrigins });

  await instance.register(i18nPlugin);
  await instance.register(errorsPlugin);
  await instance.register(storePlugin, { config: options.config, store: options.store, seed: options.seed });
  await instance.register(authPlugin, { sessionCacheMs: options.sessionCacheMs });
  // The log key signs the transparency log's checkpoints as they are projected, so a stored one is opened
  // before the runner recovers (replay re-projects checkpoints); the log's start creates it otherwise.
  const logKey: LogKeyRef = { current: undefined };
  if (options.engine !== false && (await hasLogKey(instance.store)))
    logKey.current = await openLogKey(instance.store, await secretBoxFor(options.config.dataDir));
  if (options.engine !== false) {
    await instance.register(engineRunnerPlugin, {
      ...exchangeRunnerSettings(options.config),
      projectors: exchangeProjectors(instance.store.kind, logKey),
      // Released by the last start-up step below.
      holdRecoveredTail: true,
      readYourWritesWaitMs: options.config.readYourWritesWaitMs,
      onFatal: options.onEngineFatal,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.projectorDelayMs === undefined ? {} : { projectorDelayMs: options.projectorDelayMs }),
      ...(options.durableLogReadAhead === undefined
        ? {}
        : { durableLogReadAhead: options.durableLogReadAhead }),
    });
    // The engine learns the catalogue's currencies and markets through journaled commands before serving.
    instance.addHook('onReady', async () => {
      await syncEngineCatalog(instance.store, instance.runner);
    });
    // The transparency log (docs/transparency.md): its start (an onReady hook) runs after the catalogue's
    // synchronisation above, so the engine knows the markets, and before the scheduler's first price sample
    // (registered below), so a fresh exchange's log holds every sample from the first.
    await instance.register(transparencyPlugin, {
      key: logKey,
      start: options.transparencyLog ?? options.liveMarket === true,
    });
    const { journalRetention, journalRetentionHours, dataDir, snapshotsKept } = options.config;
    if (journalRetention !== 'off') {
      let stopRetention: (() => Promise<void>) | undefined;
      instance.addHook('onReady', async () => {
        stopRetention = scheduleJournalRetention(instance.store, instance.log, {
          mode: journalRetention,
          archiveDir: join(dataDir, 'archive'),
          keepMs: journalRetentionHours * 3_600_000,
          snapshotsKept,
          vacuum: instance.store.kind === 'pglite',
        });
      });
      instance.addHook('onClose', async () => stopRetention?.());
    }
  }
  await instance.register(realtimePlugin, {
    redisUrl: options.config.redisUrl,
    redisKey: options.redisKey,
    corsOrigins: options.config.corsOrigins,
    authenticate: (token: string) => instance.sessions.authenticate(token),
  });
  if (options.engine !== false) {
    const marketOptions = { config: options.config, live: options.liveMarket, ...options.market };
    await instance.register(marketDataPlugin, marketOptions);
    // Every job that turns time into journaled commands (the index prices, the market maker).
    await instance.register(schedulerPlugin, marketOptions);
  }

  // The product areas, before the routes: each builds its services, repositories and pushes once and
  // decorates the app (app.accounts, app.admin, app.apiKeys, app.wallets, app.spot, app.micro, app.stats);
  // route files only use them. Their projections are registered with the runner above (exchange-runner.ts).
  await instance.register(accountsPlugin);
  await instance.register(adminAreaPlugin);
  // API keys: signed requests of bots; its raw-body hook must precede every route.
  await instance.register(apiKeysAreaPlugin);
  // One switch for everything the first start seeds (DEMO): accounts, products and house capital.
  const demo =
    options.config.demo && (options.demoData ?? (options.seed !== false && options.liveMarket === true));
  if (options.engine !== false) {
    await instance.register(walletsAreaPlugin, { demo });
    await instance.register(spotAreaPlugin);
    // Seconds contracts (docs/micro.md): after market data, whose catalogue names the markets.
    await instance.register(microAreaPlugin);
    // With demo data (npm start) the house's lever wallet and the insurance fund are funded too.
    await instance.register(leverAreaPlugin, { fundDemo: demo });
    // Token sales, cloud mining, defi staking (docs/products.md): demo products and the daily accrual job.
    await instance.register(productsAreaPlugin, { demo });
    await instance.register(p2pAreaPlugin, { demo });
    // Proof of liabilities (docs/transparency.md): snapshots' sum trees, built off the main thread.
    await instance.register(liabilitiesAreaPlugin);
  }
  await instance.register(statsAreaPlugin);

  await instance.register(routes);

  await instance.register(webAppPlugin, { webDist: options.config.webDist });
  if (options.engine !== false) {
    // The last start-up step (onReady hooks run in the order they were added): the projector writes what
    // a restart took back from the durable log only now, so that the start's own queries of the store did
    // not wait behind its transactions; a step that needed those projections released it earlier.
    instance.addHook('onReady', async () => {
      instance.runner.releaseProjector();
    });
  }
}

export const appPlugin = fp(app, { name: 'fairex-app' });

export interface BuildAppOptions extends AppOptions {
  /** Fastify's logger option; default: pino at the configured level. Tests pass false. */
  logger?: FastifyServerOptions['logger'];
}

/**
 * The app, not yet ready: `listen()` or the first `inject()` loads it (tests may register extra routes
 * first). Close it with `app.close()`.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const instance = Fastify({
    logger: options.logger ?? {
      level: options.config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    bodyLimit: BODY_LIMIT_BYTES,
    // request.ip follows X-Forwarded-For only through the proxies the operator named (TRUST_PROXY).
    trustProxy: options.config.trustProxy ?? false,
    // Start-up recovers the engine from its journal and, on a first start, seeds and backfills market
    // history; on a busy machine that outlasts Fastify's default 10 s per plugin.
    pluginTimeout: 120_000,
    // Request lines would dominate the log at trading rates; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // Errors raised before routing (a malformed URL) get the same envelope as every other failure.
    frameworkErrors: (error, request, reply) => {
      const lang = requestLanguage({ query: {}, headers: request.headers });
      void (reply as FastifyReply).status(400).send(apiError(translate(lang, 'error.bad_request')));
      request.log.info({ code: error.code }, 'request refused before routing');
    },
  });
  try {
    await instance.register(appPlugin, options);
  } catch (error) {
    // Close what did open (the store, Redis connections) before reporting the failure.
    await instance.close().catch(() => {});
    throw error;
  }
  return instance;
}
