// The orders page across all pairs and the market-order estimate (issue 21):
//   GET|POST /api/orders/open          the user's open orders of every pair; filters below
//   GET|POST /api/orders/history       ended orders: filled, partly filled then cancelled, cancelled
//   POST     /api/orders/cancel_all    cancel all open orders, of one pair (legal_id + currency_id, or
//                                      symbol) or everywhere; one journaled engine command
//   GET|POST /api/transaction/estimate a market order against the current book: estimated quantity, total,
//                                      average price, fee, the price-protection limit, why it would stop
// Filters: legal_id, currency_id (one pair, or all pairs of one currency), symbol ("BTC/USDT"), side
// (buy/sell), status (history: filled, partially_filled_cancelled, cancelled), start_time and end_time
// (milliseconds since the epoch, inclusive, on the creation time; a start after the end is refused), page,
// per_page; `timezone` in the query for the formatted times (as the other spot lists).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  spotCancelAllInput,
  spotEstimateInput,
  spotOrderHistoryInput,
  spotOrderListInput,
} from '@fairex/shared/api/spot.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';
import type { SpotMarket } from '../../../spot/markets.ts';
import type { SpotService } from '../../../spot/service.ts';
import { DEFAULT_PAGE_SIZE } from '../../../spot/service.ts';
import { requestTimeZone } from '../../../spot/time-format.ts';

function timeZoneOf(request: FastifyRequest): string {
  return requestTimeZone((request.query as Record<string, unknown> | undefined)?.timezone);
}

/** One pair (by ids or symbol), the pairs of one currency, or all (null). */
async function marketsOf(
  spot: SpotService,
  input: { legal_id?: number | undefined; currency_id?: number | undefined; symbol?: string | undefined },
): Promise<SpotMarket[] | null> {
  if (input.symbol !== undefined) {
    const market = await spot.markets.bySymbol(input.symbol);
    if (market === undefined) throw new AppError('spot.market_not_found');
    return [market];
  }
  const { legal_id: legalId, currency_id: currencyId } = input;
  if (legalId !== undefined && currencyId !== undefined) return [await spot.market(legalId, currencyId)];
  if (legalId === undefined && currencyId === undefined) return null;
  const all = await spot.markets.listLoaded();
  return all.filter(
    (market) =>
      (currencyId === undefined || market.baseCurrencyId === currencyId) &&
      (legalId === undefined || market.quoteCurrencyId === legalId),
  );
}

export function orderRoutes(app: FastifyInstance, spot: SpotService): void {
  const queries = app.spotOrders;

  route(app, {
    method: ['GET', 'POST'],
    url: '/orders/open',
    auth: 'required',
    input: spotOrderListInput,
    handler: async ({ input, user, request }) => {
      const markets = await marketsOf(spot, input);
      const list = await queries.open(
        user,
        { markets, side: input.side, startMs: input.start_time, endMs: input.end_time },
        input.page ?? 1,
        input.per_page ?? DEFAULT_PAGE_SIZE,
        timeZoneOf(request),
      );
      return { type: 'ok', message: list };
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/orders/history',
    auth: 'required',
    input: spotOrderHistoryInput,
    handler: async ({ input, user, request }) => {
      const markets = await marketsOf(spot, input);
      const list = await queries.history(
        user,
        { markets, side: input.side, startMs: input.start_time, endMs: input.end_time, status: input.status },
        input.page ?? 1,
        input.per_page ?? DEFAULT_PAGE_SIZE,
        timeZoneOf(request),
      );
      return { type: 'ok', message: list };
    },
  });

  route(app, {
    method: 'POST',
    url: '/orders/cancel_all',
    auth: 'required',
    input: spotCancelAllInput,
    handler: async ({ input, user, t }) => {
      const markets = await marketsOf(spot, input);
      if (markets !== null && markets.length !== 1) throw new AppError('spot.market_not_found');
      const cancelled = await spot.cancelAll(user, markets === null ? null : (markets[0] as SpotMarket));
      return {
        type: 'ok',
        message: t('spot.orders_cancelled', { count: cancelled.count }),
        orders: cancelled,
      };
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/transaction/estimate',
    auth: 'optional',
    input: spotEstimateInput,
    handler: async ({ input, user, lang }) => {
      const markets = await marketsOf(spot, input);
      if (markets === null || markets.length !== 1) throw new AppError('spot.market_not_found');
      const estimate = await spot.estimate(
        user,
        markets[0] as SpotMarket,
        { side: input.side, num: input.num, total: input.total },
        lang,
      );
      return { type: 'ok', message: estimate };
    },
  });
}
