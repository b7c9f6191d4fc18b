// The user's API keys (issue 21), for a signed-in session only (no key can manage keys):
//   POST     /api/api_keys/create   label, scopes ("read,trade"; withdraw only with ips), ips ("1.2.3.4,...")
//                                   -> the key with its secret, shown this once
//   GET|POST /api/api_keys/list     the user's keys: key id, label, scopes, allowlist, times; never a secret
//   POST     /api/api_keys/revoke   id -> the key stops working at once
// A key with the withdraw permission also needs the account's second factor to be created (code or
// totp_code, as for a withdrawal). The service is the api-keys area's (api-keys/plugin.ts, app.apiKeys).
import type { FastifyInstance } from 'fastify';
import { ok } from '@fairex/shared';
import { apiKeyCreateInput, apiKeyRevokeInput } from '@fairex/shared/api/api-keys.ts';
import type { ApiScope } from '../../../api-keys/keys.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';

export default async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  route(app, {
    method: 'POST',
    url: '/api_keys/create',
    auth: 'required',
    input: apiKeyCreateInput,
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
    input: apiKeyRevokeInput,
    handler: async ({ input, user, t }) => {
      await app.apiKeys.revoke(user.id, input.id);
      return ok(t('api_key.revoked'));
    },
  });
}
