// GET /api/health: whether the store answers, for how long this process has been up, and, when the app runs
// the engine, how far the projector is behind the journal (docs/operations.md, "Projector lag").
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
      const health = { status: 'ok', store: app.store.kind, uptime_seconds: uptimeSeconds };
      if (!app.hasDecorator('runner')) return ok(health);
      const { projectedSeq, projectorLag, lastCommittedSeq } = app.runner.stats();
      return ok({
        ...health,
        committed_seq: lastCommittedSeq,
        projected_seq: projectedSeq,
        projector_lag_commands: projectorLag.commands,
        projector_lag_ms: projectorLag.ms,
      });
    },
  });
}
