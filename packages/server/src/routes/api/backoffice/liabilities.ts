// The back office of proof of liabilities (docs/transparency.md, "Proof of liabilities"; admin/liabilities.ts):
//   POST /api/backoffice/liabilities/capture   takes a liabilities snapshot now (audited); its tree is built
//                                              and published in the log in the background
// A snapshot discloses every user's totals to the public log, like the daily one: funding.manage.
import type { FastifyInstance } from 'fastify';
import { ok } from '@fairex/shared';
import { captureLiabilitiesNow } from '../../../admin/liabilities.ts';
import type { AdminRoute } from './guard.ts';

export function liabilitiesAdminRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  if (!app.hasDecorator('liabilities')) return;
  adminRoute({
    method: 'POST',
    url: '/backoffice/liabilities/capture',
    access: 'funding.manage',
    handler: async ({ actor, t }) => {
      const { snapshotId } = await captureLiabilitiesNow({
        publisher: app.liabilities.publisher,
        db: app.store,
        actor,
        nowMs: Date.now(),
      });
      return ok(t('liabilities.captured', { id: snapshotId }));
    },
  });
}
