// The back office of P2P trade (docs/p2p.md, "Calls"; the service's parts in p2p/):
//   GET  /api/backoffice/p2p/applications          merchant applications with the thresholds met
//   POST /api/backoffice/p2p/applications/review   approve (is_seller 1, `seller` push) or reject
//   POST /api/backoffice/p2p/merchants/revoke      is_seller 0, the merchant's ads paused
//   GET  /api/backoffice/p2p/ads                   every ad; POST /ads/pause takes one off the book
//   GET  /api/backoffice/p2p/orders                orders by state and user; /orders/detail with the evidence log
//   GET  /api/backoffice/p2p/image                 an image of an order's chat or appeal
//   POST /api/backoffice/p2p/orders/decide         the arbiter's decision: reason and a fresh authenticator code
//   POST /api/backoffice/p2p/reference             the reference price floating ads follow
//   GET  /api/backoffice/p2p/config                fees, appeal wait, daily limit, references; POST sets them
// Reads need funding.read; merchant review users.manage; decisions move money, funding.manage; the
// reference price and the configuration catalog.manage. Every change is audited.
import type { FastifyInstance } from 'fastify';
import {
  ok,
  p2pAdminAdPauseInput,
  p2pAdminAdsInput,
  p2pAdminApplicationsInput,
  p2pAdminConfigInput,
  p2pAdminDecideInput,
  p2pAdminOrderInput,
  p2pAdminOrdersInput,
  p2pAdminReferenceInput,
  p2pAdminReviewInput,
  p2pAdminRevokeInput,
  p2pImageInput,
} from '@fairex/shared';
import { confirmAdminCode } from '../../../admin/second-factor.ts';
import type { AdminRoute } from './guard.ts';

export function p2pAdminRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  if (!app.hasDecorator('p2p')) return;
  const p2p = app.p2p;

  adminRoute({
    method: 'GET',
    url: '/backoffice/p2p/applications',
    access: 'funding.read',
    input: p2pAdminApplicationsInput,
    handler: async ({ input }) => ok(await p2p.backOffice.applications(input)),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/p2p/applications/review',
    access: 'users.manage',
    input: p2pAdminReviewInput,
    handler: async ({ input, actor, t }) => {
      await p2p.backOffice.review(actor, input);
      return ok(t('backoffice.saved'));
    },
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/p2p/merchants/revoke',
    access: 'users.manage',
    input: p2pAdminRevokeInput,
    handler: async ({ input, actor, t }) => {
      await p2p.backOffice.revoke(actor, input);
      return ok(t('backoffice.saved'));
    },
  });
  adminRoute({
    method: 'GET',
    url: '/backoffice/p2p/ads',
    access: 'funding.read',
    input: p2pAdminAdsInput,
    handler: async ({ input }) => ok(await p2p.backOffice.adminAds(input)),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/p2p/ads/pause',
    access: 'funding.manage',
    input: p2pAdminAdPauseInput,
    handler: async ({ input, actor }) => ok(await p2p.backOffice.adminPauseAd(actor, input)),
  });
  adminRoute({
    method: 'GET',
    url: '/backoffice/p2p/orders',
    access: 'funding.read',
    input: p2pAdminOrdersInput,
    handler: async ({ input }) => ok(await p2p.backOffice.adminOrders(input)),
  });
  adminRoute({
    method: 'GET',
    url: '/backoffice/p2p/orders/detail',
    access: 'funding.read',
    input: p2pAdminOrderInput,
    handler: async ({ input }) => ok(await p2p.backOffice.adminOrder(input.id)),
  });
  adminRoute({
    method: 'GET',
    url: '/backoffice/p2p/image',
    access: 'funding.read',
    input: p2pImageInput,
    handler: async ({ input, reply }) => {
      const { upload, data } = await p2p.backOffice.adminImage(input.id);
      return reply
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .type(upload.mime_type)
        .send(data);
    },
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/p2p/orders/decide',
    access: 'funding.manage',
    input: p2pAdminDecideInput,
    handler: async ({ input, actor }) => {
      await confirmAdminCode(app.store, app.accounts, {
        adminId: actor.adminId,
        code: input.totp_code,
      });
      return ok(await p2p.backOffice.decide(actor, input));
    },
  });
  adminRoute({
    method: 'GET',
    url: '/backoffice/p2p/config',
    access: 'funding.read',
    handler: async () => ok(await p2p.settings.config()),
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/p2p/config',
    access: 'catalog.manage',
    input: p2pAdminConfigInput,
    handler: async ({ input, actor, t }) => {
      await p2p.settings.configure(actor, input);
      return ok(t('backoffice.saved'));
    },
  });
  adminRoute({
    method: 'POST',
    url: '/backoffice/p2p/reference',
    access: 'catalog.manage',
    input: p2pAdminReferenceInput,
    handler: async ({ input, actor, t }) => {
      await p2p.settings.setReference(actor, input);
      return ok(t('backoffice.saved'));
    },
  });
}
