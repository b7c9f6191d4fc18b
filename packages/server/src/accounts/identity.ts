// Who a request is about: an e-mail address or a phone number, read from the several shapes the web client
// sends (type + email / mobile / user_string, and area_code / country_code / area_code_id).
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import type { Phone } from './identifiers.ts';
import { looksLikeEmail, normalizeAreaCode, normalizeEmail, normalizePhone } from './identifiers.ts';
import type { UserRow } from './users.ts';
import { findUserByEmail, findUserByPhone } from './users.ts';

export type Identity =
  | { kind: 'email'; email: string; destination: string }
  | { kind: 'mobile'; phone: Phone; destination: string };

/** Spec 01 section 9: the default area code is +1. */
export const DEFAULT_AREA_CODE = '1';

export interface IdentityInput {
  type?: 'email' | 'mobile' | undefined;
  user_string?: string | undefined;
  email?: string | undefined;
  mobile?: string | undefined;
  area_code?: string | undefined;
  country_code?: string | undefined;
  area_code_id?: string | undefined;
}

export function emailIdentity(value: string): Identity {
  const email = normalizeEmail(value);
  if (email === null) throw new AppError('account.email_invalid');
  return { kind: 'email', email, destination: email };
}

export function mobileIdentity(areaCodeText: string | undefined, value: string): Identity {
  const areaCode = normalizeAreaCode(areaCodeText ?? DEFAULT_AREA_CODE);
  if (areaCode === null) throw new AppError('account.area_code_invalid');
  const phone = normalizePhone(areaCode, value);
  if (phone === null) throw new AppError('account.mobile_invalid');
  return { kind: 'mobile', phone, destination: phone.e164 };
}

/**
 * The identity a request names. `type` decides when given; otherwise a value with "@" is an e-mail. A
 * request naming neither is refused with the account-required message.
 */
export function identityFrom(input: IdentityInput): Identity {
  const areaCode = input.area_code ?? input.country_code ?? input.area_code_id;
  if (input.type === 'email' || (input.type === undefined && input.email !== undefined)) {
    const value = input.email ?? input.user_string;
    if (value === undefined) throw new AppError('account.account_required');
    return emailIdentity(value);
  }
  if (input.type === 'mobile' || (input.type === undefined && input.mobile !== undefined)) {
    const value = input.mobile ?? input.user_string;
    if (value === undefined) throw new AppError('account.account_required');
    return mobileIdentity(areaCode, value);
  }
  const value = input.user_string;
  if (value === undefined) throw new AppError('account.account_required');
  return looksLikeEmail(value) ? emailIdentity(value) : mobileIdentity(areaCode, value);
}

export async function findUserByIdentity(db: Queryable, identity: Identity): Promise<UserRow | null> {
  return identity.kind === 'email'
    ? findUserByEmail(db, identity.email)
    : findUserByPhone(db, identity.phone.areaCode, identity.phone.national);
}
