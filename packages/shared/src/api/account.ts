// The login reply, declared once for the server that builds it and the clients that read it. The template's
// clients keep the envelope's `message` as the token; Fairex's web app reads `data` (the token and the
// user's info). A user with two-factor on gets a refusal naming the missing code, with `totp_required`, so
// that no client mistakes it for a session. The input schemas of the account calls (user/, safe/, sms/) are
// built from the fields of account-fields.ts.
import { z } from 'zod';
import type { ApiError, ApiOk } from '../envelope.ts';
import { optional } from '../schema/fields.ts';
import {
  accountText,
  areaCode,
  cardId,
  codePurpose,
  currentPassword,
  identityFields,
  inviteCode,
  newPassword,
  realName,
  totpCode,
  uploadReference,
  verificationCode,
} from './account-fields.ts';

/** What `user/info` answers and a login carries along. */
export interface UserInfo {
  id: number;
  account: string;
  extension_code: string;
  /** 1 when the user is a fiat merchant (the web client compares with 1). */
  is_seller: 0 | 1;
  phone: string | null;
  area_code: string | null;
  email: string | null;
  review_status: number;
  /** 1 when two-factor authentication (an authenticator app) is on. */
  google_bind: 0 | 1;
  created_at: string;
}

/** A successful login: the token as the message, and again with the user under `data`. */
export type LoginOk = ApiOk<string> & { data: { token: string; user: UserInfo } };

/** The password was right and the account needs its authenticator code too. */
export type LoginTotpRequired = ApiError & { totp_required: true };

export function loginOk(token: string, user: UserInfo): LoginOk {
  return { type: 'ok', message: token, data: { token, user } };
}

export function loginTotpRequired(message: string): LoginTotpRequired {
  return { type: 'error', message, totp_required: true };
}

/** One region of the area-code pickers (`user/countries`), named in the request language. */
export interface Country {
  /** ISO 3166 region code, e.g. "CN" (the spec's country_id and area_code_id). */
  country_id: string;
  /** Calling code digits, e.g. "86". */
  area_code: string;
  /** The name in the request language. */
  name: string;
  name_cn: string;
  name_en: string;
}

/** The real-name status of the account centre (`user/center`). */
export interface RealNameCenter {
  /** 0 not submitted, 1 under review, 2 approved. */
  review_status: number;
  /** The name and a masked ID number of the latest submission, if any. */
  name: string | null;
  card_id: string | null;
  /** Why the latest submission was rejected, while the user has not submitted again. */
  reject_reason: string | null;
  submitted_at: string | null;
  reviewed_at: string | null;
}

/** `safe/password`: the confirmation and this device's new token (the server ends every other session). */
export interface PasswordChanged {
  message: string;
  token: string;
}

/** `safe/google/secret`: a new authenticator secret, its otpauth:// URI and that URI as a QR code image. */
export interface TotpSecret {
  secret: string;
  uri: string;
  /** A data: URL of the QR code, drawn on the server. */
  qr: string;
}

/** `user/register_config`: whether registering needs an invite code (INVITE_CODE_REQUIRED). */
export interface RegisterConfig {
  invite_code_required: boolean;
}

/** POST /user/check: whether an account is free. */
export const accountCheckInput = z.object(identityFields);

/** POST /user/register. */
export const registerInput = z.object({
  ...identityFields,
  code: verificationCode(),
  password: newPassword(),
  re_password: currentPassword(),
  extension_code: inviteCode(),
});

/** POST /user/login: an account (named by its fields, or as `account` / `user_string`) and its password. */
export const loginInput = z.object({
  ...identityFields,
  account: optional(accountText()),
  password: currentPassword(),
  totp_code: optional(totpCode()),
});

/** POST /user/forget: a new password with the code sent to the account. */
export const forgetPasswordInput = z.object({
  ...identityFields,
  account: optional(accountText()),
  code: verificationCode(),
  password: newPassword(),
  repassword: optional(currentPassword()),
  re_password: optional(currentPassword()),
});

/** POST /user/real_name: a real-name submission with the three uploaded pictures. */
export const realNameInput = z.object({
  name: realName(),
  card_id: cardId(),
  front_pic: uploadReference(),
  reverse_pic: uploadReference(),
  hand_pic: uploadReference(),
});

/** POST /safe/email: binds an e-mail with the code sent to it. */
export const bindEmailInput = z.object({ email: accountText(), code: verificationCode() });

/** POST /safe/mobile: binds a phone with the code sent to it. */
export const bindMobileInput = z.object({
  mobile: accountText(),
  area_code: optional(areaCode()),
  country_code: optional(areaCode()),
  code: verificationCode(),
});

/** POST /safe/password: the old password and the new one twice. */
export const changePasswordInput = z.object({
  old_password: currentPassword(),
  password: newPassword(),
  re_password: currentPassword(),
});

/** POST /safe/google/bind: the first code of the new authenticator. */
export const totpBindInput = z.object({ code: totpCode() });

/** POST /safe/google/unbind: a code and the password. */
export const totpUnbindInput = z.object({ code: totpCode(), password: currentPassword() });

/** POST /user/check_email and /user/check_mobile: a code sent to the account, under its field's name or `code`. */
export const checkCodeInput = (codeField: 'email_code' | 'mobile_code') =>
  z.object({
    ...identityFields,
    [codeField]: optional(verificationCode()),
    code: optional(verificationCode()),
    type: codePurpose(),
  });

/** POST /sms_send and /sms_mail: where a code goes and what it is for. */
export const sendCodeInput = z.object({ ...identityFields, type: codePurpose() });
