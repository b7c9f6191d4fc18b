// Proof of liabilities (docs/transparency.md, "Proof of liabilities"), beside the log's own routes:
// - GET /log/liabilities/latest               the latest published snapshot: its log entry, root, leaf count,
//                                             totals per column and ledger identity (public);
// - GET /log/liabilities/proof?snapshot=<id>  the signed-in user's own inclusion proof in that snapshot's sum
//                                             tree (login; a user with nothing at the snapshot is told so).
// The area's plugin (liabilities/plugin.ts) builds the service; these routes only validate, call and answer.
import type { FastifyInstance } from 'fastify';
import { liabilitiesProofInput, ok } from '@fairex/shared';
import { route } from '../../../http/route.ts';

export default async function liabilitiesRoutes(app: FastifyInstance): Promise<void> {
  if (!app.hasDecorator('liabilities')) return;
  const liabilities = app.liabilities;

  route(app, {
    method: 'GET',
    url: '/log/liabilities/latest',
    auth: 'none',
    handler: async () => ok(await liabilities.latest()),
  });

  route(app, {
    method: 'GET',
    url: '/log/liabilities/proof',
    auth: 'required',
    input: liabilitiesProofInput,
    handler: async ({ input, user }) => ok(await liabilities.proof(user.id, input.snapshot)),
  });
}
