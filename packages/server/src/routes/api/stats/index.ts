// GET /api/stats/home: the home page's figures (registered users, trades in 24 hours, listed markets).
// GET /api/stats/activity: aggregate activity of the last hour for the home footer (counts only: never one
//                          user's deposit or trade, masked or not).
// Both are public and read by every visitor; the stats area (stats/plugin.ts) counts each at most once per
// cache period per process.
import type { FastifyInstance } from 'fastify';
import { ok } from '@fairex/shared';
import { statsActivityInput } from '@fairex/shared/api/site.ts';
import { route } from '../../../http/route.ts';

export default async function statsRoutes(app: FastifyInstance): Promise<void> {
  const { figures, activity } = app.stats;

  route(app, {
    method: 'GET',
    url: '/stats/home',
    handler: async () => ok(await figures.get()),
  });

  route(app, {
    method: 'GET',
    url: '/stats/activity',
    // `limit` was the old per-entry feed's; it is still accepted (and ignored) so old clients get an answer.
    input: statsActivityInput,
    handler: async () => ok(await activity.get()),
  });
}
