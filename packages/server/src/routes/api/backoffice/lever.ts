// The back office of leverage (docs/lever-calls.md, "Back office"; services in admin/lever.ts):
//   GET  /api/backoffice/lever/pairs            every lever pair: rules, exposure now and its limit
//   POST /api/backoffice/lever/pair             market_id, enabled, multiples, share_presets, min_share,
//                                               max_share, lever_share_num, spread, fee, overnight,
//                                               liquidation_threshold, liquidation_fee, exposure_limit
//   GET  /api/backoffice/lever/insurance        the insurance fund per currency and its latest movements
//   POST /api/backoffice/lever/insurance/fund   currency_id, amount, note: from outside into the fund
//   GET  /api/backoffice/lever/liquidations     page, user_id, market_id: liquidations with mark, rate, threshold
// Reads need funding.read; rule changes catalog.manage (like the other settings); funding moves money,
// funding.manage.
import type { FastifyInstance } from 'fastify';
import type { LeverAdminPairsReply, LeverInsuranceReply } from '@fairex/shared';
import { leverAdminFundInput, leverAdminListInput, leverAdminPairInput, ok } from '@fairex/shared';
import {
  fundInsurance,
  insuranceFunds,
  insuranceMovements,
  leverAdminPairs,
  liquidations,
  setLeverPair,
} from '../../../admin/lever.ts';
import type { LeverChangeContext } from '../../../admin/lever.ts';
import type { Actor } from '../../../admin/audit-changes.ts';
import type { AdminRoute } from './guard.ts';

export function leverRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  // Leverage runs only where its area is registered (the full app).
  if (!app.hasDecorator('lever')) return;
  const catalog = app.marketData.catalog;
  const marketOf = (marketId: number) => catalog.cachedById(marketId);
  const change = (actor: Actor): LeverChangeContext => ({
    engine: app.engine,
    runner: app.runner,
    db: app.store,
    actor,
    market: (marketId) => catalog.byId(marketId),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/lever/pairs',
    access: 'funding.read',
    handler: async () =>
      ok<LeverAdminPairsReply>({ list: await leverAdminPairs(app.engine, app.store, marketOf) }),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/lever/pair',
    access: 'catalog.manage',
    input: leverAdminPairInput,
    handler: async ({ input, actor, t }) => {
      await setLeverPair(change(actor), input);
      await app.leverPresets.reload();
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/lever/insurance',
    access: 'funding.read',
    handler: async () =>
      ok<LeverInsuranceReply>({
        funds: insuranceFunds(app.engine),
        movements: await insuranceMovements(app.engine, app.store),
      }),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/lever/insurance/fund',
    access: 'funding.manage',
    input: leverAdminFundInput,
    handler: async ({ input, actor }) => ok(await fundInsurance(change(actor), input)),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/lever/liquidations',
    access: 'funding.read',
    input: leverAdminListInput,
    handler: async ({ input }) =>
      ok(
        await liquidations(app.engine, app.store, marketOf, {
          page: input.page ?? 1,
          userId: input.user_id,
          marketId: input.market_id,
        }),
      ),
  });
}
