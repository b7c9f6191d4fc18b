// The spot area as a Fastify plugin: builds the spot service (markets, last prices, order placement and
// the order and trade lists) and decorates it as `app.spot`, the orders page across pairs as
// `app.spotOrders` (order-queries.ts), and runs the area's pushes: `transaction` (the
// book with the last price, pushes.ts), paced by the market-data publisher's tick when there is one, and
// `my_fill` to the owner's room for each fill of their own orders on any pair (fill-pushes.ts). Its
// projection, spot orders and trades, is registered with the runner in exchange-runner.ts. Registered by
// app.ts whenever the engine runs, after the market-data and wallets plugins.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SpotPushes } from './pushes.ts';
import { startSpotPushes } from './pushes.ts';
import { startFillPushes } from './fill-pushes.ts';
import { OrderQueries } from './order-queries.ts';
import { SpotService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    spot: SpotService;
    /** The user's orders of every pair: open ones from the engine, ended ones from the projection. */
    spotOrders: OrderQueries;
    spotPushes: SpotPushes;
  }
}

async function spotPlugin(app: FastifyInstance): Promise<void> {
  const spot = new SpotService(
    app.runner,
    app.store,
    () => app.awaitAcknowledged(),
    () => app.runner.unprojectedBatches(),
  );
  const pushes = startSpotPushes({
    engine: app.engine,
    realtime: app.realtime,
    markets: spot.markets,
    lastPrices: spot.lastPrices,
    onCommitted: (listener) => app.runner.onCommitted(listener),
    ...(app.hasDecorator('marketData')
      ? { tick: (listener: () => void) => app.marketData.onTick(listener) }
      : {}),
  });
  const stopFillPushes = startFillPushes({
    engine: app.engine,
    realtime: app.realtime,
    markets: spot.markets,
    onCommitted: (listener) => app.runner.onCommitted(listener),
    acknowledge: (userId, seq) => app.runner.noteAcknowledged(userId, seq),
  });
  app.decorate('spot', spot);
  app.decorate('spotOrders', new OrderQueries(() => app.engine, app.store, spot.markets));
  app.decorate('spotPushes', pushes);
  app.addHook('onClose', async () => {
    pushes.stop();
    stopFillPushes();
  });
}

export const spotAreaPlugin = fp(spotPlugin, {
  name: 'spot',
  dependencies: ['engine-runner', 'realtime', 'wallets'],
});
