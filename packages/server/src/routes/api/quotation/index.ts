// POST /api/quotation and /api/quotation_new: the shown pairs as `coin_list` (spec 01 section 7), each with
// its last price and 24-hour change (`proportion`, percent; `type` its direction: up, down or flat).
import type { FastifyInstance } from 'fastify';
import { ok } from '@fairex/shared';
import { route } from '../../../http/route.ts';
import { CATALOG_MAX_AGE_MS, coinList } from '../../../market/quotations.ts';

export default async function quotationRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('marketData')) return;
  for (const url of ['/quotation', '/quotation_new']) {
    route(app, {
      method: ['GET', 'POST'],
      url,
      handler: async () => {
        await app.marketData.catalog.refresh(CATALOG_MAX_AGE_MS);
        return ok({ coin_list: coinList(app.marketData) });
      },
    });
  }
}
