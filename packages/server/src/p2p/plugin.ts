// The P2P area's Fastify plugin (docs/p2p.md): builds the service once, starts the `p2p_order` and `seller`
// pushes from committed batches, and decorates the app with `app.p2p`, which the routes
// (routes/api/p2p/, routes/api/backoffice/p2p.ts) consume. The payment-window job is the scheduler's.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { withdrawalSecondFactor } from '../wallets/second-factor.ts';
import { startP2pPushes } from './pushes.ts';
import { DEFAULT_P2P_THRESHOLDS, P2pService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    p2p: P2pService;
  }
}

async function p2pPlugin(app: FastifyInstance): Promise<void> {
  const service = new P2pService({
    runner: app.runner,
    store: app.store,
    dataDir: app.accounts.dataDir,
    secondFactor: withdrawalSecondFactor(app.accounts),
    realtime: app.realtime,
    thresholds: DEFAULT_P2P_THRESHOLDS,
  });
  app.decorate('p2p', service);
  const stopPushes = startP2pPushes({
    realtime: app.realtime,
    onCommitted: (listener) => app.runner.onCommitted(listener),
  });
  app.addHook('onClose', async () => stopPushes());
}

export const p2pAreaPlugin = fp(p2pPlugin, {
  name: 'p2p',
  dependencies: ['engine-runner', 'realtime', 'accounts'],
});
