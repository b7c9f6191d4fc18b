// The user's API keys (issue 21), for a signed-in session only (no key can manage keys):
//   POST     /api/api_keys/create   label, scopes ("read,trade"; withdraw only with ips), ips ("1.2.3.4,...")
//                                   -> the key with its secret, shown this once
//   GET|POST /api/api_keys/list     the user's keys: key id, label, scopes, allowlist, times; never a secret
//   POST     /api/api_keys/revoke   id -> the key stops working at once
// A key with the withdraw permission also needs the account's second factor to be created (code or
// totp_code, as for a withdrawal). The service is the api-keys area's (api-keys/plugin.ts, app.apiKeys).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { id, ok, optional, text } from '@fairex/shared';
import type { ApiScope } from '../../../api-keys/keys.ts';
import { API_SCOPES } from '../../../api-keys/keys.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';

const list = (max: number) =>
  text({ max }).transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

const createInput = z.object({
  label: text({ min: 1, max: 64 }),
  scopes: list(40).refine(
    (scopes) => scopes.every((scope) => (API_SCOPES as readonly string[]).includes(scope)),
    {
      message: 'scopes',
    },
  ),
  ips: optional(list(1000)),
  totp_code: optional(text({ max: 6, min: 6 })),
  code: optional(text({ max: 6, min: 6 })),
});

export default async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  route(app, {
    method: 'POST',
    url: '/api_keys/create',
    auth: 'required',
    input: createInput,
    handler: async ({ input, user, t, request }) => {
      const scopes = input.scopes as ApiScope[];
      // The withdrawal second factor is the wallets area's; without the engine no key may withdraw.
      const verify = async () => {
        if (!app.hasDecorator('wallets')) throw new AppError('error.unavailable');
        await app.wallets.withdrawals.secondFactor.verify(user.id, {
          totpCode: input.totp_code,
          code: input.code,
          ip: request.ip,
        });
      };
      const created = await app.apiKeys.create(user.id, {
        label: input.label,
        scopes,
        ips: input.ips ?? [],
        ...(scopes.includes('withdraw') ? { verify } : {}),
      });
      return { type: 'ok', message: t('api_key.created'), key: created };
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/api_keys/list',
    auth: 'required',
    handler: async ({ user }) => ok(await app.apiKeys.list(user.id)),
  });

  route(app, {
    method: 'POST',
    url: '/api_keys/revoke',
    auth: 'required',
    input: z.object({ id: id() }),
    handler: async ({ input, user, t }) => {
      await app.apiKeys.revoke(user.id, input.id);
      return ok(t('api_key.revoked'));
    },
  });
}
