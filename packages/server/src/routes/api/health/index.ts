// GET /api/health: whether the store answers, and for how long this process has been up.
import type { FastifyInstance } from 'fastify';
import { apiError, ok } from '@fairex/shared';
import { route } from '../../../http/route.ts';

export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  const startedAtMs = Date.now();
  route(app, {
    method: 'GET',
    url: '/health',
    handler: async ({ reply, t }) => {
      const uptimeSeconds = Math.floor((Date.now() - startedAtMs) / 1000);
      try {
        await app.store.query('select 1');
      } catch (error) {
        app.log.error({ err: error }, 'health check: store unreachable');
        reply.status(503);
        return apiError(t('error.unavailable'));
      }
      return ok({ status: 'ok', store: app.store.kind, uptime_seconds: uptimeSeconds });
    },
  });
}
