// Spot trading calls (spec 01 section 7):
//   POST /api/transaction/deal          legal_id, currency_id -> book, last price, the user's balances
//                                       address (a symbol)    -> { complete: recent trades }
//   POST /api/transaction/in            buy:  legal_id, currency_id, price, num, mode (1 market, 2 limit)
//   POST /api/transaction/out           sell: the same
//   POST /api/transaction_in            the user's open buy orders   (page, currency_id, legal_id)
//   POST /api/transaction_out           the user's open sell orders
//   POST /api/transaction_all           all the user's open orders
//   POST /api/transaction_complete      the user's fills, newest first
//   POST /api/transaction_del           id, type: revoke one of the user's open orders
//   (orders.ts: /api/orders/open, /api/orders/history, /api/orders/cancel_all, /api/transaction/estimate)
//   (/api/lever/deal is the leverage area's, routes/api/lever/, which reads the book from SpotService.leverDeal)
//
// Placement takes an idempotency key from the `Idempotency-Key` header, or else from `client_order_id`:
// a retry with the same key answers with the first outcome instead of placing a second order.
// The spot area's service and pushes are the spot plugin's (spot/plugin.ts); these routes only use them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { spotDealInput, spotListInput, spotOrderInput, spotRevokeInput } from '@fairex/shared/api/spot.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';
import type { SpotMarket } from '../../../spot/markets.ts';
import type { SpotService, SpotSide } from '../../../spot/service.ts';
import { DEFAULT_PAGE_SIZE } from '../../../spot/service.ts';
import { requestTimeZone } from '../../../spot/time-format.ts';
import { engineTimeInForce } from '../../../spot/order-views.ts';
import { orderRoutes } from './orders.ts';

const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

function idempotencyKey(request: FastifyRequest, clientOrderId: string | undefined): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return clientOrderId;
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw new AppError('spot.idempotency_key_invalid');
  }
  return header;
}

function timeZoneOf(request: FastifyRequest): string {
  return requestTimeZone((request.query as Record<string, unknown> | undefined)?.timezone);
}

/** Which markets a list covers: one pair, every pair of one base currency, or all (null). */
async function listMarkets(
  spot: SpotService,
  legalId: number | undefined,
  currencyId: number | undefined,
): Promise<SpotMarket[] | null> {
  if (legalId !== undefined && currencyId !== undefined) return [await spot.market(legalId, currencyId)];
  if (currencyId === undefined && legalId === undefined) return null;
  const all = await spot.markets.listLoaded();
  return all.filter(
    (market) =>
      (currencyId === undefined || market.baseCurrencyId === currencyId) &&
      (legalId === undefined || market.quoteCurrencyId === legalId),
  );
}

export default async function transactionRoutes(app: FastifyInstance): Promise<void> {
  // Without the engine (tests of the HTTP plumbing alone) there is nothing to trade on.
  if (!app.hasDecorator('runner')) return;
  const spot: SpotService = app.spot;

  const placeRoute = (url: string, side: SpotSide) =>
    route(app, {
      method: 'POST',
      url,
      auth: 'required',
      input: spotOrderInput,
      // Checked against the live engine and answered from its outcome: no projection is read.
      awaitsOwnWrites: false,
      handler: async ({ input, user, lang, t, request }) => {
        const placed = await spot.placeOrder(
          user,
          {
            legalId: input.legal_id,
            currencyId: input.currency_id,
            side,
            mode: input.mode ?? 2,
            price: input.price,
            num: input.num,
            clientOrderId: input.client_order_id,
            idempotencyKey: idempotencyKey(request, input.client_order_id),
            timeInForce:
              input.time_in_force === undefined ? undefined : engineTimeInForce(input.time_in_force),
            stopPrice: input.stop_price,
          },
          lang,
        );
        return { type: 'ok', message: t(placed.text.key, placed.text.params), order: placed.order };
      },
    });
  placeRoute('/transaction/in', 'buy');
  placeRoute('/transaction/out', 'sell');
  // Orders across all pairs, cancel all, and the market-order estimate (orders.ts).
  orderRoutes(app, spot);

  route(app, {
    method: ['GET', 'POST'],
    url: '/transaction/deal',
    auth: 'optional',
    input: spotDealInput,
    handler: async ({ input, user, request }) => {
      const timeZone = timeZoneOf(request);
      if (input.legal_id !== undefined && input.currency_id !== undefined) {
        const market = await spot.market(input.legal_id, input.currency_id);
        return { type: 'ok', message: await spot.deal(user, market, timeZone) };
      }
      if (input.address !== undefined) {
        const market = (await spot.markets.bySymbol(input.address)) ?? null;
        if (market === null) throw new AppError('spot.market_not_found');
        return { type: 'ok', message: { complete: await spot.recentTrades(market, timeZone) } };
      }
      throw new AppError('spot.market_not_found');
    },
  });

  const openOrdersRoute = (url: string, side: SpotSide | undefined) =>
    route(app, {
      method: ['GET', 'POST'],
      url,
      auth: 'required',
      input: spotListInput,
      handler: async ({ input, user, request }) => {
        const markets = await listMarkets(spot, input.legal_id, input.currency_id);
        const list = await spot.openOrders(
          user,
          side === undefined ? { markets } : { side, markets },
          input.page ?? 1,
          input.per_page ?? DEFAULT_PAGE_SIZE,
          timeZoneOf(request),
        );
        return { type: 'ok', message: list };
      },
    });
  openOrdersRoute('/transaction_in', 'buy');
  openOrdersRoute('/transaction_out', 'sell');
  openOrdersRoute('/transaction_all', undefined);

  route(app, {
    method: ['GET', 'POST'],
    url: '/transaction_complete',
    auth: 'required',
    input: spotListInput,
    handler: async ({ input, user, request }) => {
      const markets = await listMarkets(spot, input.legal_id, input.currency_id);
      const list = await spot.completedTrades(
        user,
        markets,
        input.page ?? 1,
        input.per_page ?? DEFAULT_PAGE_SIZE,
        timeZoneOf(request),
      );
      return { type: 'ok', message: list };
    },
  });

  route(app, {
    method: 'POST',
    url: '/transaction_del',
    auth: 'required',
    input: spotRevokeInput,
    // Checked against the live engine and answered from its outcome, like a placement.
    awaitsOwnWrites: false,
    handler: async ({ input, user, t }) => {
      const side =
        input.type === undefined ? undefined : input.type === 'in' || input.type === 'buy' ? 'buy' : 'sell';
      const revoked = await spot.cancelOrder(user, input.id, side);
      return { type: 'ok', message: t('spot.order_cancelled'), order: revoked };
    },
  });
}
