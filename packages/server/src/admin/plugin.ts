// The administrator area as a Fastify plugin. One area for everything an administrator does: sessions and
// the first administrator's set-up (sessions.ts, setup.ts, admins.ts), the one permission model
// (permissions.ts), the second factor, the audit log (audit.ts, audit-changes.ts), user freezes, real-name
// review, funding, the catalogue, content, run-time settings and the dashboard. Its services are functions
// of the store and the runner; what holds state is built here once and decorated as `app.admin`. The
// administrator sessions themselves are checked through `app.accounts.admins` (accounts/plugin.ts).
//
// Paths: /api/backoffice/* is the canonical administrator API (the web console's); /api/admin/login,
// /api/admin/setup and /api/admin/logout are the canonical sign-in, set-up and sign-out; the other
// /api/admin/* and /api/admin/wallet/* paths are older names kept working (README.md lists them).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { UserFreezes } from './freezes.ts';

export interface AdminArea {
  /** User freezes: engine state set by the back office, with the table of reasons (freezes.ts). */
  freezes: UserFreezes;
}

declare module 'fastify' {
  interface FastifyInstance {
    admin: AdminArea;
  }
}

async function adminPlugin(app: FastifyInstance): Promise<void> {
  const freezes = new UserFreezes(app.store, () => (app.hasDecorator('runner') ? app.runner : undefined));
  app.decorate('admin', { freezes });
  // Freezes decided before they became engine state are carried into it once (idempotent at every start).
  app.addHook('onReady', async () => {
    const carried = await freezes.carryIntoEngine();
    if (carried > 0) app.log.info({ carried }, 'user freezes carried into the engine');
  });
}

export const adminAreaPlugin = fp(adminPlugin, { name: 'admin', dependencies: ['store'] });
