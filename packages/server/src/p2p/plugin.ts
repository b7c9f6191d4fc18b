// The P2P area's Fastify plugin (docs/p2p.md): builds the service once, starts the `p2p_order` and `seller`
// pushes from committed batches, and decorates the app with `app.p2p`, which the routes
// (routes/api/p2p/, routes/api/backoffice/p2p.ts) consume. The payment-window job is the scheduler's.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { withdrawalSecondFactor } from '../wallets/second-factor.ts';
import { seedDemoMerchant } from './demo.ts';
import { startP2pPushes } from './pushes.ts';
import { P2pService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    p2p: P2pService;
  }
}

export interface P2pPluginOptions {
  /** Seed the demo merchant (a fresh `npm start`: demo data and the live market). */
  demo?: boolean;
}

async function p2pPlugin(app: FastifyInstance, options: P2pPluginOptions): Promise<void> {
  const service = new P2pService({
    runner: app.runner,
    store: app.store,
    dataDir: app.accounts.dataDir,
    secondFactor: withdrawalSecondFactor(app.accounts, 'p2p_release'),
    realtime: app.realtime,
    thresholds: {
      minAccountAgeDays: app.config.p2pMinAccountAgeDays,
      minCompletedTrades: app.config.p2pMinCompletedTrades,
    },
    windowSecondsOverride: app.config.p2pWindowSeconds,
  });
  app.decorate('p2p', service);
  const stopPushes = startP2pPushes({
    realtime: app.realtime,
    onCommitted: (listener) => app.runner.onCommitted(listener),
  });
  app.addHook('onClose', async () => stopPushes());
  if (options.demo === true)
    app.addHook('onReady', async () => {
      if (await seedDemoMerchant(app.store, app.runner)) app.log.info('p2p demo merchant seeded');
    });
}

export const p2pAreaPlugin = fp(p2pPlugin, {
  name: 'p2p',
  dependencies: ['engine-runner', 'realtime', 'accounts'],
});
