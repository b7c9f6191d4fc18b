// Input fields of the account calls, declared once for the server that validates with them and the clients.
// Each accepts what form and JSON clients send and fails with a message key of the server catalogue, so the
// route answers in the request language (see schema/fields.ts).
import { z } from 'zod';
import type { MessageKey, MessageParams } from '../i18n/index.ts';
import { optional } from '../schema/fields.ts';

/** Spec 01 section 9: an account is at most 120 characters. */
export const ACCOUNT_MAX_LENGTH = 120;
/** Spec: passwords of 6 to 16 characters. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 16;
/** What an invite code field accepts: a generated code or an older one of 4 to 16 letters and digits. */
export const INVITE_CODE_PATTERN = /^[A-Za-z0-9]{4,16}$/;

type Check = { ok: true; value: string } | { ok: false; key: MessageKey; params?: MessageParams };

/** A required text field: missing, null and "" are "required"; numbers are read as their digits. */
function textField(check: (value: string) => Check) {
  return z.unknown().transform((value, context): string => {
    if (value === undefined || value === null || value === '') {
      context.issues.push({ code: 'custom', message: 'validation.required', input: value });
      return z.NEVER;
    }
    const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof text !== 'string') {
      context.issues.push({ code: 'custom', message: 'validation.invalid', input: value });
      return z.NEVER;
    }
    const result = check(text);
    if (!result.ok) {
      context.issues.push({ code: 'custom', message: result.key, params: result.params ?? {}, input: value });
      return z.NEVER;
    }
    return result.value;
  });
}

function lengthBetween(min: number, max: number, trim = true) {
  return textField((value) => {
    const text = trim ? value.trim() : value;
    return text.length >= min && text.length <= max
      ? { ok: true, value: text }
      : { ok: false, key: 'validation.text_length', params: { min, max } };
  });
}

/** An e-mail, a phone number or either (checked for form later, once the type is known). */
export const accountText = () => lengthBetween(1, ACCOUNT_MAX_LENGTH);

/** A calling code ("86", "+86") or a country id ("CN"). */
export const areaCode = () => lengthBetween(1, 5);

/** Spec: 6 to 16 characters; the spec's text adds "letters and digits", which the server enforces too. */
export const newPassword = () =>
  textField((value) =>
    value.length >= PASSWORD_MIN_LENGTH &&
    value.length <= PASSWORD_MAX_LENGTH &&
    /[A-Za-z]/.test(value) &&
    /\d/.test(value) &&
    !/\s/.test(value)
      ? { ok: true, value }
      : { ok: false, key: 'account.password_rule' },
  );

/** A password being checked, not set: any length up to a bound, never trimmed. */
export const currentPassword = () => lengthBetween(1, 128, false);

export const verificationCode = () =>
  textField((value) => {
    const code = value.trim();
    return /^\d{6}$/.test(code) ? { ok: true, value: code } : { ok: false, key: 'code.format' };
  });

export const totpCode = () =>
  textField((value) => {
    const code = value.replace(/\s/g, '');
    return /^\d{6}$/.test(code) ? { ok: true, value: code } : { ok: false, key: 'totp.required' };
  });

export const inviteCode = () =>
  optional(
    textField((value) => {
      const code = value.trim();
      return INVITE_CODE_PATTERN.test(code)
        ? { ok: true, value: code }
        : { ok: false, key: 'account.invite_invalid' };
    }),
  );

/**
 * The login dialog's tabs: an e-mail or a phone account. A number is the template's login mode (1: with a
 * password), which says nothing about the account: the account is then read from the fields that name it.
 */
export const accountType = () =>
  optional(
    textField((value) => {
      const type = value.trim().toLowerCase();
      if (type === 'email') return { ok: true, value: 'email' };
      if (type === 'mobile' || type === 'phone') return { ok: true, value: 'mobile' };
      if (/^\d{1,2}$/.test(type)) return { ok: true, value: '' };
      return { ok: false, key: 'validation.one_of', params: { values: 'email, mobile' } };
    }),
  ).transform((value) => (value === '' ? undefined : (value as 'email' | 'mobile' | undefined)));

/** Fields naming an account, shared by every call that needs one. */
export const identityFields = {
  type: accountType(),
  user_string: optional(accountText()),
  email: optional(accountText()),
  mobile: optional(accountText()),
  area_code: optional(areaCode()),
  country_code: optional(areaCode()),
  area_code_id: optional(areaCode()),
};

export const realName = () => lengthBetween(1, 100);

export const cardId = () =>
  textField((value) => {
    const text = value.trim();
    if (text.length < 4 || text.length > 40)
      return { ok: false, key: 'validation.text_length', params: { min: 4, max: 40 } };
    return /^[A-Za-z0-9-]+$/.test(text)
      ? { ok: true, value: text }
      : { ok: false, key: 'real_name.card_id_invalid' };
  });

/** An upload address as `upload` answered it, or the bare id. */
export const uploadReference = () => lengthBetween(1, 200);

export { lengthBetween };

export type RequestedPurpose = 'register' | 'forget' | 'bind_email' | 'bind_mobile' | 'bind';

/** What a code is for: register (the default), forget, or bind (an e-mail or phone to the logged-in user). */
export const codePurpose = () =>
  optional(
    textField((value) => {
      const purpose = value.trim().toLowerCase();
      return ['register', 'forget', 'bind_email', 'bind_mobile', 'bind'].includes(purpose)
        ? { ok: true, value: purpose }
        : { ok: false, key: 'code.purpose_invalid' };
    }),
  ).transform((value) => value as RequestedPurpose | undefined);
