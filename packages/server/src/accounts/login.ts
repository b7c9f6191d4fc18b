// Logging in and out. Failed logins are limited per client address and per account (lockout.ts); a user
// with two-factor on also needs an authenticator code. Every login gets a fresh token; logout revokes it.
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { createSession } from '../auth/sessions.ts';
import type { AuthUser } from '../auth/sessions.ts';
import { AppError } from '../http/app-error.ts';
import type { AccountContext } from './context.ts';
import { looksLikeEmail, normalizeEmail, phoneDigits } from './identifiers.ts';
import type { Identity } from './identity.ts';
import { findUserByIdentity } from './identity.ts';
import { dummyPasswordCheck, verifyPassword } from './passwords.ts';
import type { LoginLockout } from './lockout.ts';
import { acceptLoginAttempt, reserveLoginAttempt } from './lockout.ts';
import { acceptTotp } from './totp.ts';
import type { UserRow } from './users.ts';
import { findUserByEmail, findUserByPhone, findUsersByPhoneDigits } from './users.ts';

/** Wrong passwords from one client address, over all accounts, before that address pauses. */
export const LOGIN_IP_FAILURES = { scope: 'login.ip', max: 30, windowMs: 15 * 60_000 };
export const LOGIN_LOCKOUT: LoginLockout = {
  address: LOGIN_IP_FAILURES,
  accountScope: 'login.account',
  accountAddressScope: 'login.account_ip',
};

/** The dialog names an e-mail or a phone with its country; the login page has one free-text field. */
export type LoginTarget = { identity: Identity } | { accountText: string };

export interface LoginInput {
  target: LoginTarget;
  password: string;
  totpCode: string | undefined;
  ip: string;
  userAgent?: string | undefined;
}

export type LoginResult = { kind: 'session'; token: string; user: UserRow } | { kind: 'totp_required' };

async function findLoginUser(context: AccountContext, target: LoginTarget): Promise<UserRow | null> {
  if ('identity' in target) return findUserByIdentity(context.store, target.identity);
  const text = target.accountText.trim();
  if (looksLikeEmail(text)) {
    const email = normalizeEmail(text);
    return email === null ? null : findUserByEmail(context.store, email);
  }
  if (text.startsWith('+')) {
    const parsed = parsePhoneNumberFromString(text.replace(/[\s-]/g, ''));
    if (!parsed) return null;
    return findUserByPhone(context.store, parsed.countryCallingCode, String(parsed.nationalNumber));
  }
  const digits = phoneDigits(text);
  if (digits === null) return null;
  const matches = await findUsersByPhoneDigits(context.store, digits);
  // The same national number in two countries: only the country code can tell them apart.
  if (matches.length > 1) throw new AppError('account.choose_area_code');
  return matches[0] ?? null;
}

function targetName(target: LoginTarget): string {
  return 'identity' in target ? target.identity.destination : target.accountText.trim().toLowerCase();
}

export async function login(context: AccountContext, input: LoginInput): Promise<LoginResult> {
  const { throttle } = context;
  const user = await findLoginUser(context, input.target);
  // Unknown accounts are counted too, under their name, so that they behave like known ones.
  const subject = user ? `user:${user.id}` : `name:${targetName(input.target)}`;
  // Counted as a failed login until the password proves right (lockout.ts).
  const attempt = await reserveLoginAttempt(context.store, throttle, LOGIN_LOCKOUT, subject, input.ip);
  const passwordOk = user
    ? await verifyPassword(input.password, user.password_hash)
    : await dummyPasswordCheck(input.password);
  if (!user || !passwordOk) throw new AppError('account.login_failed');
  await acceptLoginAttempt(throttle, LOGIN_LOCKOUT, attempt);
  if (user.totp_secret !== null) {
    if (input.totpCode === undefined) return { kind: 'totp_required' };
    await acceptTotp(context, user, input.totpCode, user.totp_secret);
  }
  const session = await createSession(context.store, {
    userId: user.id,
    ttlMs: context.sessionTtlMs,
    origin: { ip: input.ip, userAgent: input.userAgent },
  });
  await context.store.query('update users set last_login_at = now(), last_login_ip = $2 where id = $1', [
    user.id,
    input.ip,
  ]);
  return { kind: 'session', token: session.token, user };
}

/** Revokes the session the request came with; sockets logged in with it stop receiving private events. */
export async function logout(context: AccountContext, user: AuthUser): Promise<void> {
  await context.sessions.revoke(user.tokenHash);
  context.realtime.endSession(user.tokenHash, user.id);
}
