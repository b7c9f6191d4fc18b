// P2P fiat trade (docs/p2p.md, "Calls"): merchants, payment methods, ads, orders and their room, counters,
// and the acceptor deals of spec 02 (`/acceptor/my_deal`). The area's plugin (p2p/plugin.ts) builds the
// service and starts the pushes; these routes only validate, call and answer.
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import {
  acceptorAnswerInput,
  acceptorDealCreateInput,
  acceptorMyDealInput,
  noInput,
  ok,
  p2pAdCreateInput,
  p2pAdEditInput,
  p2pAdIdInput,
  p2pAdListInput,
  p2pAppealInput,
  p2pFeedbackInput,
  p2pImageInput,
  p2pMerchantApplyInput,
  p2pMessageSendInput,
  p2pMessagesInput,
  p2pMethodAddInput,
  p2pMethodEditInput,
  p2pMethodIdInput,
  p2pMyAdsInput,
  p2pOrderCancelInput,
  p2pOrderCreateInput,
  p2pOrderIdInput,
  p2pOrderListInput,
  p2pOrderPaidInput,
  p2pOrderReleaseInput,
  p2pSecurityCodeInput,
} from '@fairex/shared';
import { z } from 'zod';
import { id } from '@fairex/shared';
import { MAX_UPLOAD_BYTES } from '../../../accounts/uploads.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';

const statsInput = z.object({ user_id: id() });

export default async function p2pRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('p2p')) return;
  const p2p = app.p2p;
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50 },
  });

  route(app, { method: 'GET', url: '/p2p/config', handler: async () => ok(await p2p.settings.config()) });

  // ---------------------------------------------------------------------------------- merchants
  route(app, {
    method: 'GET',
    url: '/p2p/merchant/status',
    auth: 'required',
    handler: async ({ user }) => ok(await p2p.merchants.merchantStatus(user.id)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/merchant/apply',
    auth: 'verified',
    input: p2pMerchantApplyInput,
    handler: async ({ input, user }) => ok(await p2p.merchants.apply(user.id, input)),
  });
  route(app, {
    method: 'GET',
    url: '/p2p/merchant/stats',
    input: statsInput,
    handler: async ({ input }) => ok(await p2p.merchants.merchantStats(input.user_id)),
  });

  // ---------------------------------------------------------------------------- payment methods
  route(app, {
    method: 'GET',
    url: '/p2p/methods',
    auth: 'required',
    handler: async ({ user }) => ok(await p2p.paymentMethods.methods(user.id)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/methods/add',
    auth: 'verified',
    input: p2pMethodAddInput,
    handler: async ({ input, user }) => ok(await p2p.paymentMethods.addMethod(user.id, input)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/methods/edit',
    auth: 'verified',
    input: p2pMethodEditInput,
    handler: async ({ input, user }) => ok(await p2p.paymentMethods.editMethod(user.id, input)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/methods/delete',
    auth: 'required',
    input: p2pMethodIdInput,
    handler: async ({ input, user, t }) => {
      await p2p.paymentMethods.deleteMethod(user.id, input.id);
      return ok(t('p2p.method_deleted'));
    },
  });

  // ---------------------------------------------------------------------------------------- ads
  route(app, {
    method: 'GET',
    url: '/p2p/ads',
    input: p2pAdListInput,
    handler: async ({ input }) => ok(await p2p.ads.adBook(input)),
  });
  route(app, {
    method: 'GET',
    url: '/p2p/ads/detail',
    input: p2pAdIdInput,
    handler: async ({ input }) => ok(await p2p.ads.adDetail(input.id)),
  });
  route(app, {
    method: 'GET',
    url: '/p2p/my_ads',
    auth: 'required',
    input: p2pMyAdsInput,
    handler: async ({ input, user }) => ok(await p2p.ads.myAds(user.id, input)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/ads/create',
    auth: 'verified',
    input: p2pAdCreateInput,
    handler: async ({ input, user }) => ok(await p2p.ads.createAd(user.id, input)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/ads/edit',
    auth: 'verified',
    input: p2pAdEditInput,
    handler: async ({ input, user }) => ok(await p2p.ads.editAd(user.id, input)),
  });
  for (const [path, status] of [
    ['pause', 'paused'],
    ['resume', 'online'],
    ['close', 'closed'],
  ] as const)
    route(app, {
      method: 'POST',
      url: `/p2p/ads/${path}`,
      auth: 'required',
      input: p2pAdIdInput,
      handler: async ({ input, user }) => ok(await p2p.ads.setAdStatus(user.id, input.id, status)),
    });

  // ------------------------------------------------------------------------------------- orders
  route(app, {
    method: 'POST',
    url: '/p2p/orders/create',
    auth: 'verified',
    input: p2pOrderCreateInput,
    handler: async ({ input, user }) => ok(await p2p.orders.createOrder(user.id, input)),
  });
  route(app, {
    method: 'GET',
    url: '/p2p/orders',
    auth: 'required',
    input: p2pOrderListInput,
    handler: async ({ input, user }) => ok(await p2p.orders.orders(user.id, input)),
  });
  route(app, {
    method: 'GET',
    url: '/p2p/orders/detail',
    auth: 'required',
    input: p2pOrderIdInput,
    handler: async ({ input, user }) => ok(await p2p.orders.order(user.id, input.id)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/orders/paid',
    auth: 'required',
    input: p2pOrderPaidInput,
    handler: async ({ input, user }) => ok(await p2p.orders.markPaid(user.id, input.id, input.method_id)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/security_code',
    auth: 'required',
    input: p2pSecurityCodeInput,
    handler: async ({ user, t, lang, request }) => {
      const sent = await p2p.orders.sendReleaseCode(user.id, request.ip, lang);
      return { type: 'ok', message: t('wallet.code_sent', { destination: sent.destination }), ...sent };
    },
  });
  route(app, {
    method: 'POST',
    url: '/p2p/orders/release',
    auth: 'required',
    input: p2pOrderReleaseInput,
    handler: async ({ input, user, request }) =>
      ok(
        await p2p.orders.release(user.id, input.id, {
          totpCode: input.totp_code,
          code: input.code,
          ip: request.ip,
        }),
      ),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/orders/cancel',
    auth: 'required',
    input: p2pOrderCancelInput,
    handler: async ({ input, user }) => ok(await p2p.orders.cancel(user.id, input.id)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/orders/appeal',
    auth: 'required',
    input: p2pAppealInput,
    handler: async ({ input, user }) => ok(await p2p.orders.appeal(user.id, input)),
  });
  route(app, {
    method: 'GET',
    url: '/p2p/orders/messages',
    auth: 'required',
    input: p2pMessagesInput,
    handler: async ({ input, user }) => ok(await p2p.room.messages(user.id, input.id, input.after ?? 0)),
  });
  route(app, {
    method: 'GET',
    url: '/p2p/orders/feedback',
    auth: 'required',
    input: p2pOrderIdInput,
    handler: async ({ input, user }) => ok(await p2p.feedback.ofOrder(user.id, input.id)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/orders/feedback',
    auth: 'required',
    input: p2pFeedbackInput,
    handler: async ({ input, user }) => ok(await p2p.feedback.leave(user.id, input)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/orders/message',
    auth: 'required',
    input: p2pMessageSendInput,
    handler: async ({ input, user }) => ok(await p2p.room.sendMessage(user.id, input)),
  });
  route(app, {
    method: 'GET',
    url: '/p2p/counters',
    auth: 'required',
    input: noInput,
    handler: ({ user }) => ok(p2p.orders.counters(user.id)),
  });

  // ----------------------------------------------------------------------------- private images
  route(app, {
    method: 'POST',
    url: '/p2p/upload',
    auth: 'required',
    handler: async ({ request, user }) => {
      if (!request.isMultipart()) throw new AppError('upload.not_multipart');
      let data: Buffer;
      try {
        const file = await request.file();
        if (!file) throw new AppError('upload.no_file');
        data = await file.toBuffer();
      } catch (error) {
        if (error instanceof AppError) throw error;
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('upload.too_large', { megabytes: 4 });
        throw new AppError('upload.not_multipart');
      }
      return ok(await p2p.room.upload(user.id, data));
    },
  });
  route(app, {
    method: 'GET',
    url: '/p2p/upload/image',
    auth: 'required',
    input: p2pImageInput,
    handler: async ({ input, user, reply }) => {
      const { upload, data } = await p2p.room.image(user.id, input.id);
      return reply
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .type(upload.mime_type)
        .send(data);
    },
  });

  // ----------------------------------------------------------------------------- acceptor deals
  route(app, {
    method: ['GET', 'POST'],
    url: '/acceptor/my_deal',
    auth: 'required',
    input: acceptorMyDealInput,
    handler: async ({ input, user }) => ok(await p2p.deals.myDeals(user.id, input)),
  });
  route(app, {
    method: 'POST',
    url: '/p2p/acceptor/deal',
    auth: 'verified',
    input: acceptorDealCreateInput,
    handler: async ({ input, user }) => ok(await p2p.deals.createDeal(user.id, input)),
  });
  for (const [path, accept] of [
    ['confirm', true],
    ['reject', false],
  ] as const)
    route(app, {
      method: 'POST',
      url: `/p2p/acceptor/${path}`,
      auth: 'required',
      input: acceptorAnswerInput,
      handler: async ({ input, user, request }) =>
        ok(
          await p2p.deals.answerDeal(user.id, input.id, accept, {
            totpCode: input.totp_code,
            code: input.code,
            ip: request.ip,
          }),
        ),
    });
}
