// The leverage area's Fastify plugin: configures the catalogue's lever markets once the app is ready (and,
// with demo data, funds the house's lever wallet and the insurance fund), starts the `lever_trade` pushes,
// and decorates the app with `app.lever`, which the routes (routes/api/lever/, routes/api/backoffice/
// lever.ts) consume. Registered after the market-data plugin, whose catalogue names the markets.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { applyLeverDefaults } from './defaults.ts';
import { startLeverPushes } from './pushes.ts';
import { LeverService } from './service.ts';
import { catalogLeverRows } from './settings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    lever: LeverService;
    leverPresets: { reload(): Promise<void> };
  }
}

export interface LeverPluginOptions {
  /** Fund the house's lever wallet and the insurance fund at the first start (demo data). */
  fundDemo?: boolean;
}

async function leverPlugin(app: FastifyInstance, options: LeverPluginOptions): Promise<void> {
  const catalog = app.marketData.catalog;
  let presets = new Map<number, number[]>();
  const reload = async () => {
    presets = new Map((await catalogLeverRows(app.store)).map((row) => [row.marketId, row.sharePresets]));
  };
  const service = new LeverService(
    app.runner,
    app.store,
    (marketId) => catalog.cachedById(marketId),
    (marketId) => presets.get(marketId) ?? [],
    app.priceSource,
  );
  app.decorate('lever', service);
  app.decorate('leverPresets', { reload });
  app.addHook('onReady', async () => {
    await catalog.refresh(0);
    await applyLeverDefaults(app.runner, app.store, options.fundDemo ?? false);
    await reload();
  });
  const stopPushes = startLeverPushes({
    service,
    realtime: app.realtime,
    scaleOf: (currencyId) => app.engine.ledger.currency(currencyId)?.scale ?? 0,
    onCommitted: (listener) => app.runner.onCommitted(listener),
    onError: (error) => app.log.error({ err: error }, 'lever push failed'),
  });
  app.addHook('onClose', async () => stopPushes());
}

export const leverAreaPlugin = fp(leverPlugin, {
  name: 'lever',
  dependencies: ['engine-runner', 'realtime', 'market-data'],
});
