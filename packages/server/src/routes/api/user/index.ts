// The user calls of spec 01 section 7 and spec 02 section 7: account check, code checks, register, login,
// logout, password recovery, user info, the account centre, real-name submission and the country list.
import type { FastifyInstance } from 'fastify';
import {
  accountCheckInput,
  checkCodeInput,
  forgetPasswordInput,
  loginInput,
  loginOk,
  loginTotpRequired,
  ok,
  realNameInput,
  registerInput,
  type RegisterConfig,
} from '@fairex/shared';
import { countryList } from '../../../accounts/countries.ts';
import { identityFrom } from '../../../accounts/identity.ts';
import { resolvePurpose } from '../../../accounts/inputs.ts';
import { login, logout } from '../../../accounts/login.ts';
import { realNameCenter, submitRealName } from '../../../accounts/real-name.ts';
import { assertAccountFree, register } from '../../../accounts/registration.ts';
import { checkClientCode, checkCode, resetPassword } from '../../../accounts/security.ts';
import { codeClientHash } from '../../../accounts/code-client.ts';
import { uploadIdFrom } from '../../../accounts/uploads.ts';
import { findUserById, userInfo } from '../../../accounts/users.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';

export default async function userRoutes(app: FastifyInstance): Promise<void> {
  const context = app.accounts;

  route(app, {
    method: 'POST',
    url: '/user/check',
    input: accountCheckInput,
    handler: async ({ input, t }) => {
      await assertAccountFree(context, identityFrom(input));
      return ok(t('account.available'));
    },
  });

  // With the account named, the latest code for it and the purpose; with the code alone (the template's
  // clients), the code sent to this client, found through the cookie the sending request set.
  for (const [url, codeField, kind, channel] of [
    ['/user/check_email', 'email_code', 'email', 'email'],
    ['/user/check_mobile', 'mobile_code', 'mobile', 'sms'],
  ] as const) {
    route(app, {
      method: 'POST',
      url,
      input: checkCodeInput(codeField),
      handler: async ({ input, request, t }) => {
        const code = (input as Record<string, string | undefined>)[codeField] ?? input.code;
        if (code === undefined) throw new AppError('validation.required', { field: t(`field.${codeField}`) });
        if (input.user_string === undefined && input.email === undefined && input.mobile === undefined) {
          const clientHash = codeClientHash(request, channel);
          await checkClientCode(context, { clientHash, channel, code, ip: request.ip });
          return ok(t('code.correct'));
        }
        const identity = identityFrom({ ...input, type: kind });
        const purpose = resolvePurpose(input.type, kind, false);
        await checkCode(context, { purpose, identity, code, ip: request.ip });
        return ok(t('code.correct'));
      },
    });
  }

  route(app, {
    method: 'POST',
    url: '/user/register',
    input: registerInput,
    handler: async ({ input, request, lang, t }) => {
      await register(context, {
        identity: identityFrom(input),
        code: input.code,
        password: input.password,
        rePassword: input.re_password,
        inviteCode: input.extension_code,
        ip: request.ip,
        lang,
      });
      return ok(t('account.registered'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/user/login',
    input: loginInput,
    handler: async ({ input, request, t }) => {
      const named = input.type !== undefined || input.email !== undefined || input.mobile !== undefined;
      const accountTextValue = input.account ?? input.user_string;
      const target =
        named || accountTextValue === undefined
          ? { identity: identityFrom(input) }
          : { accountText: accountTextValue };
      const result = await login(context, {
        target,
        password: input.password,
        totpCode: input.totp_code,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      // A refusal, not an ok without a token: a template client keeps an ok answer's message as its token.
      if (result.kind === 'totp_required') return loginTotpRequired(t('totp.required'));
      return loginOk(result.token, userInfo(result.user));
    },
  });

  route(app, {
    method: 'POST',
    url: '/user/logout',
    auth: 'required',
    handler: async ({ user, t }) => {
      await logout(context, user);
      return ok(t('account.logged_out'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/user/forget',
    input: forgetPasswordInput,
    handler: async ({ input, request, t }) => {
      const rePassword = input.repassword ?? input.re_password;
      if (rePassword === undefined)
        throw new AppError('validation.required', { field: t('field.repassword') });
      await resetPassword(context, {
        identity: identityFrom({ ...input, user_string: input.user_string ?? input.account }),
        code: input.code,
        password: input.password,
        rePassword,
        ip: request.ip,
      });
      return ok(t('account.password_reset'));
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/user/info',
    auth: 'required',
    handler: async ({ user }) => {
      const row = await findUserById(app.store, user.id);
      if (!row) throw new AppError('auth.login_required', {}, '999');
      return ok(userInfo(row));
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/user/center',
    auth: 'required',
    handler: async ({ user }) => ok(await realNameCenter(context, user.id)),
  });

  route(app, {
    method: 'POST',
    url: '/user/real_name',
    auth: 'required',
    input: realNameInput,
    handler: async ({ input, user, t }) => {
      const ids = [input.front_pic, input.reverse_pic, input.hand_pic].map(uploadIdFrom);
      const [front, reverse, hand] = ids;
      if (!front || !reverse || !hand) throw new AppError('upload.not_found');
      await submitRealName(context, user.id, {
        name: input.name,
        cardId: input.card_id,
        frontUploadId: front,
        reverseUploadId: reverse,
        handUploadId: hand,
      });
      return ok(t('real_name.submitted'));
    },
  });

  // What the registration forms need to know about this exchange's rules.
  route(app, {
    method: 'GET',
    url: '/user/register_config',
    handler: () => ok({ invite_code_required: context.inviteCodeRequired } satisfies RegisterConfig),
  });

  route(app, {
    method: 'GET',
    url: '/user/countries',
    handler: ({ lang }) => ok(countryList(lang)),
  });
}
