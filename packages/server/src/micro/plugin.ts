// The seconds-contract area's Fastify plugin: journals the default configuration once the app is ready,
// starts the `closed_microorder` pushes, and decorates the app with `app.micro`, which the routes
// (routes/api/microtrade/) consume. Registered after the market-data plugin, whose catalogue names markets.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { applyMicroDefaults } from './defaults.ts';
import { exportMicroOrders } from './export.ts';
import { startMicroPushes } from './pushes.ts';
import {
  listMicroOrders,
  microProof,
  microStats,
  payableCurrencies,
  secondsReply,
  submitMicro,
} from './service.ts';
import type { SubmitInput } from './service.ts';
import type { MarketInfo } from '../market/market-catalog.ts';
import type { ViewContext } from './views.ts';

export interface MicroArea {
  seconds(): ReturnType<typeof secondsReply>;
  payableCurrencies(userId: number | null): ReturnType<typeof payableCurrencies>;
  marketById(marketId: number): Promise<MarketInfo | undefined>;
  submit(input: SubmitInput): ReturnType<typeof submitMicro>;
  list(userId: number, options: Parameters<typeof listMicroOrders>[3]): ReturnType<typeof listMicroOrders>;
  /** The user's own orders with their proofs' fields, as CSV. */
  export(
    userId: number,
    options: Parameters<typeof exportMicroOrders>[3],
  ): ReturnType<typeof exportMicroOrders>;
  /** A settled order's proof; `userId` null (the back office) reads any user's order. */
  proof(userId: number | null, orderId: number): ReturnType<typeof microProof>;
  /** What the back office's order views need: the engine, the pairs' symbols, the time. */
  viewContext(): ViewContext;
  stats(days: number): ReturnType<typeof microStats>;
}

declare module 'fastify' {
  interface FastifyInstance {
    micro: MicroArea;
  }
}

async function microPlugin(app: FastifyInstance): Promise<void> {
  const catalog = app.marketData.catalog;
  const symbolOf = (marketId: number) => catalog.cachedById(marketId)?.symbol ?? '';
  const context = (): ViewContext => ({ engine: app.engine, symbolOf, nowMs: Date.now() });
  const area: MicroArea = {
    seconds: () => secondsReply(app.engine),
    payableCurrencies: (userId) => payableCurrencies(app.engine, userId),
    marketById: async (marketId) => {
      const market = await catalog.byId(marketId);
      return market === undefined || app.engine.spot.market(market.marketId) === undefined
        ? undefined
        : market;
    },
    submit: (input) => submitMicro(app.runner, context(), input, app.priceSource),
    list: (userId, options) => listMicroOrders(app.store, context(), userId, options),
    export: (userId, options) => exportMicroOrders(app.store, context(), userId, options),
    proof: (userId, orderId) =>
      microProof(
        app.store,
        context(),
        (marketId) => catalog.cachedById(marketId),
        userId,
        orderId,
        app.priceSource.kind(),
      ),
    viewContext: context,
    stats: (days) => microStats(app.store, app.engine, days, Date.now()),
  };
  app.decorate('micro', area);
  app.addHook('onReady', async () => {
    // MICRO_RESERVE is house capital: the first start funds it only with DEMO=on.
    await applyMicroDefaults(app.runner, app.config.demo ? BigInt(app.config.microReserve) : 0n);
    await catalog.refresh(0);
  });
  const stopPushes = startMicroPushes({
    engine: app.engine,
    realtime: app.realtime,
    symbolOf,
    onCommitted: (listener) => app.runner.onCommitted(listener),
    acknowledge: (userId, seq) => app.runner.noteAcknowledged(userId, seq),
  });
  app.addHook('onClose', async () => stopPushes());
}

export const microAreaPlugin = fp(microPlugin, {
  name: 'micro',
  dependencies: ['engine-runner', 'realtime', 'market-data'],
});
