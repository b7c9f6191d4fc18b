// The public price record (docs/price-record.md), no login:
// - GET /price/samples    a market's samples in a time range, oldest first, at most 600;
// - GET /price/heads      published heads, newest first, of one market or of all;
// - GET /price/proof      a sample's chain up to the first published head that covers it;
// - GET /price/mark_bars  bars of the mark price from the samples (stale samples skipped);
// - GET /price/source     the price source's kind (simulated or live), the DEMO switch, and whether seconds
//                         contracts and leverage take new orders (pages label simulated prices from it).
import type { FastifyInstance } from 'fastify';
import {
  MARK_BARS_PER_CALL,
  PRICE_SAMPLES_PER_CALL,
  markBarsInput,
  ok,
  priceHeadsInput,
  priceProofInput,
  priceSamplesInput,
} from '@fairex/shared';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';
import type { MarketInfo } from '../../../market/market-catalog.ts';
import { nominalLengthMs } from '../../../market/periods.ts';
import { markBars, proofOf, publishedHeads, samplesInRange } from '../../../market/price-record.ts';

const DEFAULT_HEADS = 20;

export default async function priceRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('marketData')) return;
  const catalog = app.marketData.catalog;

  const marketOf = async (symbol: string): Promise<MarketInfo> => {
    const market = await catalog.bySymbol(symbol);
    if (market === undefined || app.engine.spot.market(market.marketId) === undefined)
      throw new AppError('market.unknown_market');
    return market;
  };
  const range = (from: number | undefined, to: number | undefined, spanMs: number) => {
    const toMs = to ?? Date.now();
    const fromMs = from ?? Math.max(0, toMs - spanMs);
    if (fromMs > toMs) throw new AppError('market.range_order');
    return { fromMs, toMs };
  };

  route(app, {
    method: 'GET',
    url: '/price/source',
    auth: 'optional',
    handler: async () => ok(app.priceSource.reply()),
  });

  route(app, {
    method: 'GET',
    url: '/price/samples',
    auth: 'optional',
    input: priceSamplesInput,
    handler: async ({ input }) => {
      const market = await marketOf(input.symbol);
      const { fromMs, toMs } = range(input.from, input.to, PRICE_SAMPLES_PER_CALL * 1_000);
      const samples = await samplesInRange(
        app.store,
        app.engine,
        market,
        fromMs,
        toMs,
        PRICE_SAMPLES_PER_CALL,
      );
      return ok({ symbol: market.symbol, samples });
    },
  });

  route(app, {
    method: 'GET',
    url: '/price/heads',
    auth: 'optional',
    input: priceHeadsInput,
    handler: async ({ input }) => {
      const market = input.symbol === undefined ? undefined : await marketOf(input.symbol);
      await catalog.refresh(60_000);
      const heads = await publishedHeads(
        app.store,
        (marketId) => catalog.cachedById(marketId)?.symbol,
        market?.marketId,
        input.limit ?? DEFAULT_HEADS,
      );
      return ok({ heads });
    },
  });

  route(app, {
    method: 'GET',
    url: '/price/proof',
    auth: 'optional',
    input: priceProofInput,
    handler: async ({ input }) => {
      const market = await marketOf(input.symbol);
      const proof = await proofOf(app.store, app.engine, market, input.seq);
      if (proof.kind === 'unknownSample') throw new AppError('price.unknown_sample');
      if (proof.kind === 'notCovered') throw new AppError('price.not_covered');
      return ok({ symbol: market.symbol, head: proof.head, samples: proof.samples });
    },
  });

  route(app, {
    method: 'GET',
    url: '/price/mark_bars',
    auth: 'optional',
    input: markBarsInput,
    handler: async ({ input }) => {
      const market = await marketOf(input.symbol);
      const lengthMs = nominalLengthMs(input.period);
      const { fromMs, toMs } = range(input.from, input.to, MARK_BARS_PER_CALL * lengthMs);
      const bars = await markBars(
        app.store,
        app.engine,
        market,
        input.period,
        fromMs,
        toMs,
        MARK_BARS_PER_CALL,
      );
      return ok({ symbol: market.symbol, period: input.period, bars });
    },
  });
}
