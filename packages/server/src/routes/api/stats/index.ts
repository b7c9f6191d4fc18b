// GET /api/stats/home: the home page's figures (registered users, trades in 24 hours, listed markets).
// GET /api/stats/activity: recent real activity for the footer's toast, anonymised.
// Both are public and read by every visitor; the stats area (stats/plugin.ts) counts each at most once per
// cache period per process.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { integer, ok, optional } from '@fairex/shared';
import { route } from '../../../http/route.ts';
import { ACTIVITY_MAX } from '../../../stats/plugin.ts';

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
    input: z.object({ limit: optional(integer({ min: 1, max: ACTIVITY_MAX })) }),
    handler: async ({ input }) => {
      const list = await activity.get();
      return ok({ list: list.slice(0, input.limit ?? ACTIVITY_MAX) });
    },
  });
}
