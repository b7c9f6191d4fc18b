// The back office of token sales, cloud mining and defi staking (docs/products.md, "Back office"; service in
// products/admin.ts):
//   GET  /api/backoffice/products             every product with its terms, sales, house account and reserve
//   POST /api/backoffice/products/create      a draft product (kind ico, miner or defi, with its terms)
//   POST /api/backoffice/products/edit        new terms for future purchases (holdings keep theirs)
//   POST /api/backoffice/products/open        opens: the house account must hold what it promises
//   POST /api/backoffice/products/close       stops sales; holdings run to their end
//   POST /api/backoffice/products/fund        id, amount, note: the house's change wallet -> the product's house account
//   POST /api/backoffice/products/miner_rate  id, day, amount: a recorded-rate miner's amount for a day to come
//   GET  /api/backoffice/products/rates       id, page: a miner's days, recorded amounts and accruals
//   GET  /api/backoffice/products/holdings    id, page: a product's purchases, rents and stakes
//   GET  /api/backoffice/products/accruals    id, page: a product's accrued days
//   POST /api/backoffice/products/accrue      runs the accrual job now
// Reads need funding.read; product changes catalog.manage; funding and running the accrual job funding.manage.
import type { FastifyInstance } from 'fastify';
import {
  adminAccrueInput,
  adminMinerRateInput,
  adminProductCreateInput,
  adminProductEditInput,
  adminProductFundInput,
  adminProductIdInput,
  adminProductPageInput,
  ok,
} from '@fairex/shared';
import type { AdminRoute } from './guard.ts';

export function productsRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  if (!app.hasDecorator('products')) return;
  const admin = app.products.admin;

  adminRoute({
    method: 'GET',
    url: '/backoffice/products',
    access: 'funding.read',
    handler: () => ok(admin.list()),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/products/create',
    access: 'catalog.manage',
    input: adminProductCreateInput,
    handler: async ({ input, actor }) => ok(await admin.create(actor, input)),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/products/edit',
    access: 'catalog.manage',
    input: adminProductEditInput,
    handler: async ({ input, actor }) => ok(await admin.edit(actor, input)),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/products/open',
    access: 'catalog.manage',
    input: adminProductIdInput,
    handler: async ({ input, actor }) => ok(await admin.setOpen(actor, input.id, true)),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/products/close',
    access: 'catalog.manage',
    input: adminProductIdInput,
    handler: async ({ input, actor }) => ok(await admin.setOpen(actor, input.id, false)),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/products/fund',
    access: 'funding.manage',
    input: adminProductFundInput,
    handler: async ({ input, actor }) => ok(await admin.fund(actor, input.id, input.amount, input.note)),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/products/miner_rate',
    access: 'catalog.manage',
    input: adminMinerRateInput,
    handler: async ({ input, actor, t }) => {
      await admin.recordRate(actor, input.id, input.day, input.amount);
      return ok(t('backoffice.saved'));
    },
  });
  adminRoute({
    method: 'GET',
    url: '/backoffice/products/rates',
    access: 'funding.read',
    input: adminProductPageInput,
    handler: async ({ input }) => ok(await admin.rates(input.id, input.page ?? 1)),
  });
  adminRoute({
    method: 'GET',
    url: '/backoffice/products/holdings',
    access: 'funding.read',
    input: adminProductPageInput,
    handler: async ({ input }) => ok(await admin.holdings(input.id, input.page ?? 1)),
  });
  adminRoute({
    method: 'GET',
    url: '/backoffice/products/accruals',
    access: 'funding.read',
    input: adminProductPageInput,
    handler: async ({ input }) => ok(await admin.accruals(input.id, input.page ?? 1)),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/products/accrue',
    access: 'funding.manage',
    input: adminAccrueInput,
    handler: async () => ok(await admin.accrueNow()),
  });
}
