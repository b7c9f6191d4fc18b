// Leveraged contracts against the house (spec 01 sections 2-5, 7, 9; spec 03 section 4; docs/lever-calls.md):
//   POST /lever/deal         legal_id, currency_id -> the pair's book and prices, rules, the caller's account
//   POST /lever/dealall      [legal_id] -> the caller's holdings and entries, the risk of each quote currency
//   POST /lever/submit       legal_id, currency_id, multiple, share, type (1 long, 2 short), status (1 market,
//                            0 limit), target_price (limit)
//   POST /lever/my_trade     status (0, 1, 3, 4), [legal_id, currency_id], page -> 10 a page
//   POST /lever/close        id: a holding at the mark
//   POST /lever/cancel       id: a pending limit entry; margin and fee return
//   POST /lever/setstop      id, target_profit_price, stop_loss_price ("0" or empty clears)
//   POST /lever/batch_close  type (0 all, 1 longs, 2 shorts)
//   GET  /lever/loss_share   [days]: the share of lever accounts that lost money (public)
// The area's plugin (lever/plugin.ts) builds the service and pushes `lever_trade`; these routes only validate,
// call and answer. Every private read is the caller's own.
import type { FastifyInstance } from 'fastify';
import {
  leverBatchCloseInput,
  leverDealAllInput,
  leverIdInput,
  leverLossShareInput,
  leverMyTradeInput,
  leverPairInput,
  leverSetStopInput,
  leverSubmitInput,
  ok,
  translate,
} from '@fairex/shared';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';

export default async function leverRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('lever')) return;
  const lever = app.lever;
  const catalog = app.marketData.catalog;
  const marketOf = async (legalId: number, currencyId: number) => {
    const market = await catalog.byPair(legalId, currencyId);
    if (market === undefined) throw new AppError('lever.pair_not_open');
    return market;
  };

  route(app, {
    method: ['GET', 'POST'],
    url: '/lever/deal',
    auth: 'optional',
    input: leverPairInput,
    handler: async ({ input, user }) => {
      const market = await marketOf(input.legal_id, input.currency_id);
      const base = await app.spot.leverDeal(user, await app.spot.market(input.legal_id, input.currency_id));
      return ok(await lever.deal(user?.id ?? null, market, base));
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/lever/dealall',
    auth: 'required',
    input: leverDealAllInput,
    handler: async ({ input, user }) => ok(await lever.dealAll(user.id, input.legal_id)),
  });

  route(app, {
    method: 'POST',
    url: '/lever/submit',
    auth: 'required',
    input: leverSubmitInput,
    handler: async ({ input, user }) => {
      const market = await marketOf(input.legal_id, input.currency_id);
      const trade = await lever.submit({
        userId: user.id,
        market,
        multiple: input.multiple,
        share: input.share,
        side: input.type,
        status: input.status,
        targetPrice: input.target_price,
      });
      return ok({ trade });
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/lever/my_trade',
    auth: 'required',
    input: leverMyTradeInput,
    handler: async ({ input, user }) => {
      const market =
        input.legal_id !== undefined && input.currency_id !== undefined
          ? await marketOf(input.legal_id, input.currency_id)
          : undefined;
      return ok(await lever.myTrade(user.id, { status: input.status, market, page: input.page ?? 1 }));
    },
  });

  route(app, {
    method: 'POST',
    url: '/lever/close',
    auth: 'required',
    input: leverIdInput,
    handler: async ({ input, user, request }) => ({
      ...ok(await lever.close(user.id, input.id)),
      text: translate(request.lang, 'lever.closed'),
    }),
  });

  route(app, {
    method: 'POST',
    url: '/lever/cancel',
    auth: 'required',
    input: leverIdInput,
    handler: async ({ input, user, request }) => ({
      ...ok(await lever.cancel(user.id, input.id)),
      text: translate(request.lang, 'lever.revoked'),
    }),
  });

  route(app, {
    method: 'POST',
    url: '/lever/setstop',
    auth: 'required',
    input: leverSetStopInput,
    handler: async ({ input, user, request }) => ({
      ...ok(await lever.setStops(user.id, input.id, input.target_profit_price, input.stop_loss_price)),
      text: translate(request.lang, 'lever.stops_saved'),
    }),
  });

  route(app, {
    method: 'POST',
    url: '/lever/batch_close',
    auth: 'required',
    input: leverBatchCloseInput,
    handler: async ({ input, user }) => ok(await lever.batchClose(user.id, input.type)),
  });

  route(app, {
    method: 'GET',
    url: '/lever/loss_share',
    auth: 'none',
    input: leverLossShareInput,
    handler: async ({ input }) => ok(await lever.lossShare(input.days ?? 90, Date.now())),
  });
}
