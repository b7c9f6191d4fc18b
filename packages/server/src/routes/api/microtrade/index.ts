// Seconds (micro) contracts (spec 02 sections 2.5, 7; spec 03 section 5; docs/micro.md):
// - GET  /microtrade/seconds             seconds options with their profit ratio, and the preset numbers;
// - GET  /microtrade/payable_currencies  payable currencies with fee, limits, presets and the user's micro wallet;
// - POST /microtrade/submit              an up (type 1) or down (type 2) order (login);
// - GET  /microtrade/lists               the user's orders, 20 a page, running ones with remain_milli_seconds;
// - GET  /microtrade/export            the user's own orders with their proofs' fields as CSV (login);
// - GET  /microtrade/proof?id=           a settled order's rule, samples and chain to a published head (login);
// - GET  /microtrade/stats               public daily figures: orders, outcomes, voids, the house's result.
// The area's plugin (micro/plugin.ts) builds the service, journals the default configuration and pushes
// `closed_microorder` to the owner's room; these routes only validate, call and answer.
import type { FastifyInstance } from 'fastify';
import {
  MICRO_LIST_LIMIT,
  microExportInput,
  microListsInput,
  microProofInput,
  microStatsInput,
  microSubmitInput,
  ok,
} from '@fairex/shared';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';

export default async function microtradeRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('micro')) return;
  const micro = app.micro;

  route(app, {
    method: ['GET', 'POST'],
    url: '/microtrade/seconds',
    auth: 'optional',
    handler: () => ok(micro.seconds()),
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/microtrade/payable_currencies',
    auth: 'optional',
    handler: ({ user }) => ok(micro.payableCurrencies(user?.id ?? null)),
  });

  route(app, {
    method: 'POST',
    url: '/microtrade/submit',
    auth: 'required',
    input: microSubmitInput,
    handler: async ({ input, user }) => {
      const market = await micro.marketById(input.match_id);
      if (market === undefined) throw new AppError('market.unknown_market');
      const order = await micro.submit({
        userId: user.id,
        market,
        currencyId: input.currency_id,
        direction: input.type,
        seconds: input.seconds,
        number: input.number,
      });
      return ok(order);
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/microtrade/lists',
    auth: 'required',
    input: microListsInput,
    handler: async ({ input, user }) =>
      ok(
        await micro.list(user.id, {
          page: input.page ?? 1,
          ...(input.status === undefined ? {} : { status: input.status }),
          ...(input.match_id === undefined ? {} : { marketId: input.match_id }),
          limit: input.limit ?? MICRO_LIST_LIMIT,
        }),
      ),
  });

  route(app, {
    method: 'GET',
    url: '/microtrade/export',
    auth: 'required',
    input: microExportInput,
    handler: async ({ input, user }) =>
      ok(await micro.export(user.id, input.match_id === undefined ? {} : { marketId: input.match_id })),
  });

  route(app, {
    method: 'GET',
    url: '/microtrade/proof',
    auth: 'required',
    input: microProofInput,
    handler: async ({ input, user }) => ok(await micro.proof(user.id, input.id)),
  });

  route(app, {
    method: 'GET',
    url: '/microtrade/stats',
    auth: 'none',
    input: microStatsInput,
    handler: async ({ input }) => ok({ days: await micro.stats(input.days ?? 30) }),
  });
}
