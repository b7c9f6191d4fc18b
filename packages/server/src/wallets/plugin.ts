// The wallets (funding) area as a Fastify plugin: builds the wallet services once (deposit keys, catalogue,
// deposits, withdrawals, flash exchange, transfers, address book, ledger records, custody callbacks) and
// decorates them as `app.wallets`; once the app is ready it finishes what a crash left half done; and it
// runs the area's push, `update_balance` (balance-pushes.ts). Its projection, the account log, is
// registered with the runner in exchange-runner.ts. Registered by app.ts whenever the engine runs, after
// the accounts plugin (the withdrawal second factor) and before the spot plugin (a batch's balances are
// pushed before its books).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startBalancePushes } from './balance-pushes.ts';
import type { PayoutAdapter } from './custody/payout.ts';
import { startDemoFlashDesk } from './flash-desk.ts';
import { withdrawalSecondFactor } from './second-factor.ts';
import type { WalletServices } from './services.ts';
import { buildWalletServices, reconcileWallets } from './services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    wallets: WalletServices;
  }
}

export interface WalletsPluginOptions {
  /** Demo data (DEMO=on, app.ts): the first start funds the flash desk with house capital (flash-desk.ts). */
  demo?: boolean;
  /** Tests pass their own payout adapter (a stand-in provider) or clock. */
  payout?: PayoutAdapter;
  clock?: () => number;
}

async function walletsPlugin(app: FastifyInstance, options: WalletsPluginOptions): Promise<void> {
  const { demo: _demo, ...walletOptions } = options;
  const services = await buildWalletServices({
    config: app.config,
    store: app.store,
    runner: app.runner,
    secondFactor: withdrawalSecondFactor(app.accounts),
    log: app.log,
    ...walletOptions,
  });
  app.decorate('wallets', services);
  app.addHook('onReady', async () => {
    const committed = app.runner.stats().lastCommittedSeq;
    await reconcileWallets(services, app.log, () => app.runner.whenProjected(committed));
    if (options.demo === true) {
      stopDesk = await startDemoFlashDesk({
        runner: app.runner,
        db: app.store,
        flash: services.flash,
        prices: services.prices,
        projected: () => app.runner.whenProjected(app.runner.stats().lastCommittedSeq),
        log: app.log,
      });
    }
  });
  let stopDesk: () => void = () => {};
  app.addHook('onClose', async () => stopDesk());
  const pushes = startBalancePushes({
    engine: app.engine,
    realtime: app.realtime,
    onCommitted: (listener) => app.runner.onCommitted(listener),
    acknowledge: (userId, seq) => app.runner.noteAcknowledged(userId, seq),
  });
  app.addHook('onClose', async () => pushes.stop());
}

export const walletsAreaPlugin = fp(walletsPlugin, {
  name: 'wallets',
  dependencies: ['engine-runner', 'realtime', 'accounts'],
});
