// Sending verification codes (spec 01 section 7, spec 02 section 7): /sms_send by text message to a phone
// with its area code, /sms_mail by e-mail. `type` says what the code is for: register (the default for a
// visitor), forget, or bind (the default for a logged-in user). The answer sets a short-lived cookie that
// lets the template's code checks, which send the code alone, find this code (accounts/code-client.ts).
import type { FastifyInstance } from 'fastify';
import { ok, sendCodeInput } from '@fairex/shared';
import { newCodeClient, setCodeCookie } from '../../../accounts/code-client.ts';
import { emailIdentity, mobileIdentity } from '../../../accounts/identity.ts';
import { resolvePurpose } from '../../../accounts/inputs.ts';
import { sendCode } from '../../../accounts/security.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';

export default async function smsRoutes(app: FastifyInstance): Promise<void> {
  const context = app.accounts;

  for (const [url, kind] of [
    ['/sms_send', 'mobile'],
    ['/sms_mail', 'email'],
  ] as const) {
    route(app, {
      method: 'POST',
      url,
      auth: 'optional',
      input: sendCodeInput,
      handler: async ({ input, user, request, reply, lang, t }) => {
        const value = (kind === 'email' ? input.email : input.mobile) ?? input.user_string;
        if (value === undefined) throw new AppError('account.account_required');
        const identity =
          kind === 'email'
            ? emailIdentity(value)
            : mobileIdentity(input.area_code ?? input.country_code ?? input.area_code_id, value);
        const client = newCodeClient();
        await sendCode(context, {
          purpose: resolvePurpose(input.type, kind, user !== null),
          identity,
          userId: user?.id ?? null,
          ip: request.ip,
          lang,
          clientHash: client.hash,
        });
        setCodeCookie(request, reply, kind === 'email' ? 'email' : 'sms', client.token);
        return ok(t('code.sent'));
      },
    });
  }
}
