// Two-factor authentication with an authenticator app (TOTP, RFC 6238: SHA-1, six digits, 30 seconds),
// beyond the specification's "Google authenticator" item, which only said "not open". Enrolment shows a
// secret (as a QR code) that must be confirmed with a code before it counts; from then on login needs a
// code. A code is accepted one step either side of now, and never twice.
import { Secret, TOTP } from 'otpauth';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import type { AccountContext } from './context.ts';
import { checkOwnPassword } from './own-password.ts';
import { dummyPasswordCheck } from './passwords.ts';
import { minutesToWait } from './throttle.ts';
import type { UserRow } from './users.ts';
import { findUserById } from './users.ts';

export const TOTP_ISSUER = 'Fairex';
const PERIOD_SECONDS = 30;
/** Wrong authenticator codes per account before a 15-minute pause (login, confirm and disable share it). */
export const TOTP_FAILURES = { scope: 'totp.user', max: 5, windowMs: 15 * 60_000 };

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/**
 * The 30-second step a code belongs to, or null when it is wrong. `window: 1` allows a phone clock a step
 * off in either direction.
 */
export function matchingStep(secretBase32: string, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secretBase32, 'check').validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta;
}

/**
 * Accepts a code for the user's secret (or `secret`, during enrolment) once: the step is recorded so that
 * the same code cannot log in twice. Wrong codes count toward a pause.
 */
export async function acceptTotp(
  context: AccountContext,
  db: Queryable,
  user: UserRow,
  code: string,
  secret: string,
): Promise<void> {
  const subject = String(user.id);
  const state = await context.throttle.state(TOTP_FAILURES, subject);
  if (state.blocked)
    throw new AppError('totp.too_many_attempts', { minutes: minutesToWait(state.retryAfterMs) });
  const step = matchingStep(secret, code);
  if (step === null || (user.totp_last_step !== null && step <= user.totp_last_step)) {
    await context.throttle.record(TOTP_FAILURES.scope, subject);
    throw new AppError('totp.wrong');
  }
  const { rowCount } = await db.query(
    `update users set totp_last_step = $2
      where id = $1 and (totp_last_step is null or totp_last_step < $2)`,
    [user.id, step],
  );
  // Another request used this very code a moment ago.
  if (rowCount !== 1) throw new AppError('totp.wrong');
  await context.throttle.clear(TOTP_FAILURES.scope, subject);
}

export interface TotpEnrolment {
  secret: string;
  /** otpauth:// URI for the QR code. */
  uri: string;
}

/** Starts (or restarts) enrolment: a new secret, pending until confirmed. */
export async function startTotp(context: AccountContext, userId: number): Promise<TotpEnrolment> {
  const user = await requireUser(context, userId);
  if (user.totp_secret !== null) throw new AppError('totp.already_on');
  const secret = new Secret({ size: 20 }).base32;
  await context.store.query('update users set totp_pending_secret = $2 where id = $1', [userId, secret]);
  return { secret, uri: totpFor(secret, user.account).toString() };
}

export async function confirmTotp(context: AccountContext, userId: number, code: string): Promise<void> {
  const user = await requireUser(context, userId);
  if (user.totp_secret !== null) throw new AppError('totp.already_on');
  const pending = user.totp_pending_secret;
  if (pending === null) throw new AppError('totp.not_started');
  await acceptTotp(context, context.store, user, code, pending);
  await context.store.query(
    'update users set totp_secret = totp_pending_secret, totp_pending_secret = null where id = $1',
    [userId],
  );
}

/** Turning two-factor off needs both the password and a current code. */
export async function disableTotp(
  context: AccountContext,
  userId: number,
  input: { password: string; code: string },
): Promise<void> {
  const user = await requireUser(context, userId);
  if (user.totp_secret === null) {
    await dummyPasswordCheck(input.password);
    throw new AppError('totp.not_on');
  }
  await checkOwnPassword(context, user, input.password);
  await acceptTotp(context, context.store, user, input.code, user.totp_secret);
  await context.store.query(
    'update users set totp_secret = null, totp_pending_secret = null, totp_last_step = null where id = $1',
    [userId],
  );
}

async function requireUser(context: AccountContext, userId: number): Promise<UserRow> {
  const user = await findUserById(context.store, userId);
  if (!user) throw new AppError('auth.login_required', {}, '999');
  return user;
}
