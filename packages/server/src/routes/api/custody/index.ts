// POST /api/custody/callback: the custody provider's deposit and withdrawal reports (uDun protocol), form
// fields timestamp, nonce, sign and body. Answers the plain text `success` once processed (first time or
// repeated), `error` otherwise, so the provider retries what was not processed. See wallets/custody.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fieldWithUnstorableText } from '../../../http/route.ts';

/** The body field holds one trade as JSON; a few kilobytes is plenty. */
const CALLBACK_BODY_LIMIT_BYTES = 16 * 1024;

const fields = z.object({
  timestamp: z.string().max(32),
  nonce: z.string().max(64),
  sign: z.string().max(64),
  body: z.string().max(8192),
});

export default async function custodyRoutes(app: FastifyInstance): Promise<void> {
  // Without the engine (tests of the HTTP plumbing alone) there are no balances to serve.
  if (!app.hasDecorator('runner')) return;
  const services = app.wallets;

  app.route({
    method: 'POST',
    url: '/custody/callback',
    bodyLimit: CALLBACK_BODY_LIMIT_BYTES,
    handler: async (request, reply) => {
      const parsed = fields.safeParse(request.body);
      reply.type('text/plain; charset=utf-8');
      if (!parsed.success || fieldWithUnstorableText(parsed.data) !== undefined) {
        await services.callbacks.log({ ip: request.ip, detail: 'missing or malformed fields' });
        return 'error';
      }
      const result = await services.callbacks.handle(parsed.data, request.ip);
      if (result.reply !== 'success')
        request.log.warn({ outcome: result.outcome, detail: result.detail }, 'custody callback refused');
      return result.reply;
    },
  });
}
