// POST /api/account/list (limit, page): the user's account ledger, every balance change of every wallet,
// newest first, 20 per page by default (spec 02 sections 3 and 9). Read from account_log, the engine's own
// projection, so it always agrees with the balances.
import type { FastifyInstance } from 'fastify';
import { accountLogInput, ok } from '@fairex/shared';
import { route } from '../../../http/route.ts';

export const LEDGER_PAGE_SIZE = 20;

export default async function accountRoutes(app: FastifyInstance): Promise<void> {
  // Without the engine (tests of the HTTP plumbing alone) there are no balances to serve.
  if (!app.hasDecorator('runner')) return;
  const services = app.wallets;

  route(app, {
    method: 'POST',
    url: '/account/list',
    auth: 'required',
    input: accountLogInput,
    handler: async ({ input, user, lang }) =>
      ok(
        await services.records.ledger({
          userId: user.id,
          lang,
          page: input.page ?? 1,
          perPage: input.limit ?? LEDGER_PAGE_SIZE,
        }),
      ),
  });
}
