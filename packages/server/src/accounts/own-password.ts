// Checking the password of a user who is already logged in (changing the password, turning two-factor off):
// wrong answers count toward a pause, so that a stolen session cannot be used to guess the password.
import { AppError } from '../http/app-error.ts';
import type { AccountContext } from './context.ts';
import { verifyPassword } from './passwords.ts';
import { minutesToWait } from './throttle.ts';
import type { UserRow } from './users.ts';

export const OWN_PASSWORD_FAILURES = { scope: 'password.user', max: 5, windowMs: 15 * 60_000 };

export async function checkOwnPassword(
  context: AccountContext,
  user: UserRow,
  password: string,
): Promise<void> {
  const subject = String(user.id);
  const state = await context.throttle.state(OWN_PASSWORD_FAILURES, subject);
  if (state.blocked) {
    throw new AppError('account.too_many_failures', { minutes: minutesToWait(state.retryAfterMs) });
  }
  if (!(await verifyPassword(password, user.password_hash))) {
    await context.throttle.record(OWN_PASSWORD_FAILURES.scope, subject);
    throw new AppError('account.password_wrong');
  }
  await context.throttle.clear(OWN_PASSWORD_FAILURES.scope, subject);
}
