// E-mail addresses and phone numbers as the account features store and compare them: e-mail trimmed
// and lower-cased; phones split into a calling code and a national number, validated by libphonenumber.
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import type { CountryCode } from 'libphonenumber-js';
import { ACCOUNT_MAX_LENGTH } from '@fairex/shared/api/account-fields.ts';

/** Spec 01 section 9: an account is at most 120 characters. */
export { ACCOUNT_MAX_LENGTH };

// One @, something on both sides, a dot in the domain and no spaces: the pattern both the web form and
// the server check. Deliverability is proved by the code sent to it, not by a longer expression.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function normalizeEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  if (email.length < 6 || email.length > ACCOUNT_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return null;
  return email;
}

export interface Phone {
  /** Calling code digits without "+", e.g. "86". */
  areaCode: string;
  /** The national significant number, digits only, without a trunk prefix. */
  national: string;
  /** +<area code><national>: the account name and code destination of a phone user. */
  e164: string;
}

const CALLING_CODES = new Set(getCountries().map((country) => getCountryCallingCode(country)));
const COUNTRY_IDS = new Set<string>(getCountries());

/**
 * A calling code from what clients send: "86", "+86", or a country id such as "CN" (the login
 * dialog's area_code_id). Null when it names no country.
 */
export function normalizeAreaCode(value: string): string | null {
  const text = value.trim();
  if (/^[A-Za-z]{2}$/.test(text)) {
    const country = text.toUpperCase();
    return COUNTRY_IDS.has(country) ? getCountryCallingCode(country as CountryCode) : null;
  }
  const digits = text.replace(/^\+/, '');
  return /^\d{1,4}$/.test(digits) && CALLING_CODES.has(digits) ? digits : null;
}

/** A valid phone number from a calling code and what the user typed (spaces and dashes allowed). */
export function normalizePhone(areaCode: string, value: string): Phone | null {
  const typed = value.trim().replace(/[\s-]/g, '');
  if (!/^\+?\d{4,17}$/.test(typed)) return null;
  const parsed = typed.startsWith('+')
    ? parsePhoneNumberFromString(typed)
    : parsePhoneNumberFromString(typed, { defaultCallingCode: areaCode });
  if (!parsed || !parsed.isValid() || parsed.countryCallingCode !== areaCode) return null;
  const national = String(parsed.nationalNumber);
  return { areaCode, national, e164: `+${areaCode}${national}` };
}

/** Digits of a phone number typed without a country (the login page's single account field). */
export function phoneDigits(value: string): string | null {
  const digits = value.trim().replace(/[\s-]/g, '');
  return /^\d{5,15}$/.test(digits) ? digits : null;
}

export function looksLikeEmail(value: string): boolean {
  return value.includes('@');
}
