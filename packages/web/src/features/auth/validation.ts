// The validation rules of spec 01 section 5 and spec 02 section 5, the same ones the server applies: a
// form refuses early with the spec's messages, and the server's own check stays the final word.

/** Spec 01 section 9: an account is at most 120 characters, a password 6 to 16. */
export const ACCOUNT_MAX_LENGTH = 120;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 16;
/** The login page's password input (spec 01 section 5: maxlength 16). */
export const LOGIN_PASSWORD_MAX_LENGTH = 16;

/** The loose pattern of the login dialog: something, @, something. */
const LOOSE_EMAIL = /^[^\s@]+@[^\s@]+$/;
/** The stricter pattern of registration and binding, the server's: a dot in the domain, no spaces. */
const STRICT_EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function isLooseEmail(value: string): boolean {
  return LOOSE_EMAIL.test(value.trim());
}

export function isEmail(value: string): boolean {
  const text = value.trim();
  return text.length <= ACCOUNT_MAX_LENGTH && STRICT_EMAIL.test(text);
}

/** Login dialog: a mobile number is digits only and longer than 6. */
export function isLoginMobile(value: string): boolean {
  const text = value.trim();
  return /^\d+$/.test(text) && text.length > 6;
}

/**
 * Register and bind: the spec's mainland pattern (1 and ten digits) for area code 86; elsewhere 5 to 15
 * digits, the length range of international numbers. The server checks the number against its country.
 */
export function isMobileFor(areaCode: string, value: string): boolean {
  const text = value.trim();
  if (areaCode === '86') return /^1\d{10}$/.test(text);
  return /^\d{5,15}$/.test(text);
}

/** Recovery by phone: the mainland pattern for +86, the general one elsewhere. */
export function isRecoveryMobile(areaCode: string, value: string): boolean {
  const text = value.trim();
  return areaCode === '86' ? /^1[3-8]\d{9}$/.test(text) : isMobileFor(areaCode, text);
}

/** 6 to 16 characters with letters and digits and no spaces (the spec's text rule, enforced by the server). */
export function isValidPassword(value: string): boolean {
  return (
    value.length >= PASSWORD_MIN_LENGTH &&
    value.length <= PASSWORD_MAX_LENGTH &&
    /[A-Za-z]/.test(value) &&
    /\d/.test(value) &&
    !/\s/.test(value)
  );
}

export function isCode(value: string): boolean {
  return /^\d{6}$/.test(value.trim());
}

/** Letters, digits and the upper-case alphabet of generated codes; older codes may be 4 to 16 long. */
export function isInviteCode(value: string): boolean {
  return /^[A-Za-z0-9]{4,16}$/.test(value.trim());
}

export function isCardId(value: string): boolean {
  const text = value.trim();
  return text.length >= 4 && text.length <= 40 && /^[A-Za-z0-9-]+$/.test(text);
}

/** Spec 01 section 4: the security bar starts at 25 and gains 25 for a phone, an e-mail and approval. */
export function securityLevel(info: {
  phone: string | null;
  email: string | null;
  review_status: number;
}): number {
  return 25 + (info.phone ? 25 : 0) + (info.email ? 25 : 0) + (info.review_status === 2 ? 25 : 0);
}
