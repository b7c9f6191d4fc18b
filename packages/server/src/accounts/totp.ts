// Two-factor authentication with an authenticator app (TOTP, RFC 6238: SHA-1, six digits, 30 seconds),
// beyond the specification's "Google authenticator" item, which only said "not open". Enrolment shows a
// secret (as a QR code) that must be confirmed with a code before it counts; from then on login needs a
// code. A code is accepted one step either side of now, and never twice.
import { Secret, TOTP } from 'otpauth';
import { AppError } from '../http/app-error.ts';
import { lockCounted } from '../store/counted-locks.ts';
import type { AccountContext } from './context.ts';
import { checkOwnPassword } from './own-password.ts';
import { dummyPasswordCheck } from './passwords.ts';
import { minutesToWait } from './throttle.ts';
import { openTotpSecret, sealTotpSecret } from './totp-secrets.ts';
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
  user: UserRow,
  code: string,
  storedSecret: string,
): Promise<void> {
  const secret = await openTotpSecret(context.secrets, storedSecret);
  const subject = String(user.id);
  // One step under the account's lock: the failures are counted before the next code of the same account is
  // judged, so parallel guesses cannot all pass one count.
  const refusal = await context.store.transaction(async (tx): Promise<AppError | null> => {
    await lockCounted(tx, [[TOTP_FAILURES.scope, subject]]);
    const state = await context.throttle.state(TOTP_FAILURES, subject, tx);
    if (state.blocked) {
      return new AppError('totp.too_many_attempts', { minutes: minutesToWait(state.retryAfterMs) });
    }
    const step = matchingStep(secret, code);
    const { rowCount } =
      step === null
        ? { rowCount: 0 }
        : await tx.query(
            `update users set totp_last_step = $2
              where id = $1 and (totp_last_step is null or totp_last_step < $2)`,
            [user.id, step],
          );
    // A wrong code, or one this account used already (perhaps a moment ago by another request).
    const right = await context.throttle.settle(TOTP_FAILURES.scope, subject, rowCount === 1, tx);
    return right ? null : new AppError('totp.wrong');
  });
  if (refusal !== null) throw refusal;
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
  await context.store.query('update users set totp_pending_secret = $2 where id = $1', [
    userId,
    await sealTotpSecret(context.secrets, secret),
  ]);
  return { secret, uri: totpFor(secret, user.account).toString() };
}

export async function confirmTotp(context: AccountContext, userId: number, code: string): Promise<void> {
  const user = await requireUser(context, userId);
  if (user.totp_secret !== null) throw new AppError('totp.already_on');
  const pending = user.totp_pending_secret;
  if (pending === null) throw new AppError('totp.not_started');
  await acceptTotp(context, user, code, pending);
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
  await acceptTotp(context, user, input.code, user.totp_secret);
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
