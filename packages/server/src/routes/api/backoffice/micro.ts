// The back office of seconds contracts (docs/micro.md, "Back office"; services in admin/micro.ts):
//   GET  /api/backoffice/micro/config          seconds options, payable currencies, exposure caps, staleness
//   POST /api/backoffice/micro/seconds         options: [{seconds, profit_ratio_bp}]  (replaces them all)
//   POST /api/backoffice/micro/currency        currency_id, fee_bp, min, max, presets, max_open_orders
//   POST /api/backoffice/micro/cap             market_id, currency_id, exposure_cap (0 closes the pair)
//   POST /api/backoffice/micro/staleness       max_sample_age_ms
//   GET  /api/backoffice/micro/reserve         the house reserve per currency, the house's change wallet and
//                                              the reserve's latest fundings (from the account log)
//   POST /api/backoffice/micro/reserve/fund    currency_id, amount, note: change wallet -> reserve
//   GET  /api/backoffice/micro/orders          settled orders: page, user_id, market_id, outcome, from, to
//   GET  /api/backoffice/micro/proof           id: any user's settled order's proof
// Reads need funding.read; configuration changes catalog.manage (like the other settings); funding the
// reserve moves money, funding.manage.
import type { FastifyInstance } from 'fastify';
import type { MicroProof, MicroReserveReply } from '@fairex/shared';
import {
  microAdminCapInput,
  microAdminCurrencyInput,
  microAdminFundInput,
  microAdminOrdersInput,
  microAdminProofInput,
  microAdminSecondsInput,
  microAdminStalenessInput,
  ok,
} from '@fairex/shared';
import {
  fundReserve,
  microAdminConfig,
  microReserve,
  reserveFundings,
  setExposureCap,
  setPayableCurrency,
  setSecondsOptions,
  setStaleness,
  settledOrders,
} from '../../../admin/micro.ts';
import type { MicroChangeContext } from '../../../admin/micro.ts';
import type { Actor } from '../../../admin/audit-changes.ts';
import type { AdminRoute } from './guard.ts';

export function microRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  // Seconds contracts run only where their area is registered (the full app).
  if (!app.hasDecorator('micro')) return;
  const symbolOf = (marketId: number) => app.micro.viewContext().symbolOf(marketId);
  const change = (actor: Actor): MicroChangeContext => ({
    engine: app.engine,
    runner: app.runner,
    db: app.store,
    actor,
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/micro/config',
    access: 'funding.read',
    handler: () => ok(microAdminConfig(app.engine, symbolOf)),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/micro/seconds',
    access: 'catalog.manage',
    input: microAdminSecondsInput,
    handler: async ({ input, actor, t }) => {
      await setSecondsOptions(change(actor), input.options);
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/micro/currency',
    access: 'catalog.manage',
    input: microAdminCurrencyInput,
    handler: async ({ input, actor, t }) => {
      await setPayableCurrency(change(actor), input);
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/micro/cap',
    access: 'catalog.manage',
    input: microAdminCapInput,
    handler: async ({ input, actor, t }) => {
      await setExposureCap(change(actor), input);
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/micro/staleness',
    access: 'catalog.manage',
    input: microAdminStalenessInput,
    handler: async ({ input, actor, t }) => {
      await setStaleness(change(actor), input.max_sample_age_ms);
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/micro/reserve',
    access: 'funding.read',
    handler: async () =>
      ok<MicroReserveReply>({
        list: microReserve(app.engine),
        fundings: await reserveFundings(app.store, app.engine),
      }),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/micro/reserve/fund',
    access: 'funding.manage',
    input: microAdminFundInput,
    handler: async ({ input, actor }) => ok(await fundReserve(change(actor), input)),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/micro/orders',
    access: 'funding.read',
    input: microAdminOrdersInput,
    handler: async ({ input }) =>
      ok(
        await settledOrders(app.store, app.micro.viewContext(), {
          page: input.page ?? 1,
          userId: input.user_id,
          marketId: input.market_id,
          outcome: input.outcome,
          fromMs: input.from,
          toMs: input.to,
        }),
      ),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/micro/proof',
    access: 'funding.read',
    input: microAdminProofInput,
    handler: async ({ input }) => ok<MicroProof>(await app.micro.proof(null, input.id)),
  });
}
