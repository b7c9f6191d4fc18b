// The back office's API under /api/backoffice: what the administrators' console (/admin in the web app)
// calls. Every route needs an administrator session that has passed the second factor and a role allowed
// to use it (guard.ts); every change is written to the audit log with who, what, before, after, when and
// from where. Sign-in with the password is the accounts module's POST /api/admin/login.
import type { FastifyInstance } from 'fastify';
import { catalogRoutes } from './catalog.ts';
import { contentRoutes } from './content.ts';
import { fundingRoutes } from './funding.ts';
import { backofficeGuard } from './guard.ts';
import { microRoutes } from './micro.ts';
import { leverRoutes } from './lever.ts';
import { liabilitiesAdminRoutes } from './liabilities.ts';
import { p2pAdminRoutes } from './p2p.ts';
import { operationsRoutes } from './operations.ts';
import { productsRoutes } from './products.ts';
import { reviewRoutes } from './review.ts';
import { sessionRoutes } from './session.ts';
import { userRoutes } from './users.ts';

export default async function backofficeRoutes(app: FastifyInstance): Promise<void> {
  // Balances, queues and the catalogue all come from the engine; without it there is nothing to run.
  if (!app.hasDecorator('runner')) return;
  const adminRoute = backofficeGuard(app);
  sessionRoutes(app, adminRoute);
  userRoutes(app, adminRoute);
  reviewRoutes(app, adminRoute);
  await fundingRoutes(app, adminRoute);
  await catalogRoutes(app, adminRoute);
  contentRoutes(app, adminRoute);
  operationsRoutes(app, adminRoute);
  microRoutes(app, adminRoute);
  leverRoutes(app, adminRoute);
  productsRoutes(app, adminRoute);
  p2pAdminRoutes(app, adminRoute);
  liabilitiesAdminRoutes(app, adminRoute);
}
