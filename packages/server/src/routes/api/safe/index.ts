// The account centre's security calls: binding an e-mail (spec 02 section 7) or a phone, changing the login
// password, and two-factor authentication with an authenticator app.
import type { FastifyInstance } from 'fastify';
import { ok } from '@fairex/shared';
import {
  bindEmailInput,
  bindMobileInput,
  changePasswordInput,
  totpBindInput,
  totpUnbindInput,
  type PasswordChanged,
  type TotpSecret,
} from '@fairex/shared/api/account.ts';
import QRCode from 'qrcode';
import { emailIdentity, mobileIdentity } from '../../../accounts/identity.ts';
import { bindIdentity, changePassword } from '../../../accounts/security.ts';
import { confirmTotp, disableTotp, startTotp } from '../../../accounts/totp.ts';
import { findUserById } from '../../../accounts/users.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';

export default async function safeRoutes(app: FastifyInstance): Promise<void> {
  const context = app.accounts;

  route(app, {
    method: 'POST',
    url: '/safe/email',
    auth: 'required',
    input: bindEmailInput,
    handler: async ({ input, user, request, t }) => {
      await bindIdentity(context, user.id, {
        identity: emailIdentity(input.email),
        code: input.code,
        ip: request.ip,
      });
      return ok(t('account.email_bound'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/safe/mobile',
    auth: 'required',
    input: bindMobileInput,
    handler: async ({ input, user, request, t }) => {
      const identity = mobileIdentity(input.area_code ?? input.country_code, input.mobile);
      await bindIdentity(context, user.id, { identity, code: input.code, ip: request.ip });
      return ok(t('account.mobile_bound'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/safe/password',
    auth: 'required',
    input: changePasswordInput,
    handler: async ({ input, user, t, request }) => {
      const { token } = await changePassword(context, user.id, {
        oldPassword: input.old_password,
        password: input.password,
        rePassword: input.re_password,
        origin: { ip: request.ip, userAgent: request.headers['user-agent'] },
      });
      return ok<PasswordChanged>({ message: t('account.password_changed'), token });
    },
  });

  route(app, {
    method: ['GET', 'POST'],
    url: '/safe/google',
    auth: 'required',
    handler: async ({ user }) => {
      const row = await findUserById(app.store, user.id);
      if (!row) throw new AppError('auth.login_required', {}, '999');
      return ok({ google_bind: row.totp_secret === null ? 0 : 1 });
    },
  });

  route(app, {
    method: 'POST',
    url: '/safe/google/secret',
    auth: 'required',
    handler: async ({ user }) => {
      const enrolment = await startTotp(context, user.id);
      // A QR code drawn on the server: the secret never passes through a third-party image service.
      const qr = await QRCode.toDataURL(enrolment.uri, { margin: 1, width: 200, errorCorrectionLevel: 'M' });
      return ok<TotpSecret>({ secret: enrolment.secret, uri: enrolment.uri, qr });
    },
  });

  route(app, {
    method: 'POST',
    url: '/safe/google/bind',
    auth: 'required',
    input: totpBindInput,
    handler: async ({ input, user, t }) => {
      await confirmTotp(context, user.id, input.code);
      return ok(t('totp.enabled'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/safe/google/unbind',
    auth: 'required',
    input: totpUnbindInput,
    handler: async ({ input, user, t }) => {
      await disableTotp(context, user.id, { password: input.password, code: input.code });
      return ok(t('totp.disabled'));
    },
  });
}
