// The back office of proof of liabilities (docs/transparency.md, "Proof of liabilities"; admin/liabilities.ts):
//   POST /api/backoffice/liabilities/capture   reason: takes a liabilities snapshot now (audited with the
//                                              reason); its tree is built and published in the log in the
//                                              background
// A snapshot discloses every user's totals to the public log, like the daily one: funding.manage.
import type { FastifyInstance } from 'fastify';
import { liabilitiesCaptureInput, ok } from '@fairex/shared';
import { captureLiabilitiesNow } from '../../../admin/liabilities.ts';
import type { AdminRoute } from './guard.ts';

export function liabilitiesAdminRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  if (!app.hasDecorator('liabilities')) return;
  adminRoute({
    method: 'POST',
    url: '/backoffice/liabilities/capture',
    access: 'funding.manage',
    input: liabilitiesCaptureInput,
    handler: async ({ input, actor, t }) => {
      const { snapshotId } = await captureLiabilitiesNow({
        reason: input.reason,
        publisher: app.liabilities.publisher,
        db: app.store,
        actor,
        nowMs: Date.now(),
      });
      return ok(t('liabilities.captured', { id: snapshotId }));
    },
  });
}
