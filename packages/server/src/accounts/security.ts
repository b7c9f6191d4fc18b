// Changing what protects an account: the password (by the old one, or by a code when forgotten), and the
// e-mail address or phone number bound to it (by a code sent to the new one). A new password revokes every
// session of the user, so that whoever knew the old one is logged out everywhere.
import type { Language } from '@fairex/shared';
import type { SessionOrigin } from '../auth/sessions.ts';
import { createSession } from '../auth/sessions.ts';
import { AppError } from '../http/app-error.ts';
import type { CodeChannel, CodePurpose } from './codes.ts';
import type { AccountContext } from './context.ts';
import type { Identity } from './identity.ts';
import { findUserByIdentity } from './identity.ts';
import { liftAccountLock } from './lockout.ts';
import { LOGIN_LOCKOUT } from './login.ts';
import { checkOwnPassword } from './own-password.ts';
import { hashPassword } from './passwords.ts';
import type { UserRow } from './users.ts';
import { findUserById, isUniqueViolation } from './users.ts';

export interface SendCodeRequest {
  purpose: CodePurpose;
  identity: Identity;
  /** The logged-in user, for binding codes. */
  userId: number | null;
  ip: string;
  lang: Language;
  /** See codes.ts `SendCodeInput.clientHash`. */
  clientHash?: string;
}

/**
 * Sends a code after checking that it can be of use: a register code only to a free account, a reset code
 * only to an existing one, a binding code only to an address nobody else has, for a logged-in user.
 */
export async function sendCode(context: AccountContext, request: SendCodeRequest): Promise<void> {
  const { identity, purpose } = request;
  const owner = await findUserByIdentity(context.store, identity);
  const taken = identity.kind === 'email' ? 'account.email_taken' : 'account.mobile_taken';
  if (purpose === 'register' && owner) throw new AppError(taken);
  if (purpose === 'forget' && !owner) throw new AppError('account.not_found');
  if (purpose === 'bind_email' || purpose === 'bind_mobile') {
    if (request.userId === null) throw new AppError('auth.login_required', {}, '999');
    if (owner?.id === request.userId) throw new AppError('account.already_bound');
    if (owner) throw new AppError(taken);
  }
  await context.codes.send({
    purpose,
    channel: identity.kind === 'email' ? 'email' : 'sms',
    destination: identity.destination,
    userId: purpose === 'forget' ? (owner?.id ?? null) : request.userId,
    ip: request.ip,
    lang: request.lang,
    ...(request.clientHash === undefined ? {} : { clientHash: request.clientHash }),
  });
}

/**
 * The template's check: the code alone, from the client the code was sent to (the hash of its cookie
 * token; none is answered like a code never sent). Does not use the code up.
 */
export async function checkClientCode(
  context: AccountContext,
  input: { clientHash: string | undefined; channel: CodeChannel; code: string; ip: string },
): Promise<void> {
  if (input.clientHash === undefined) throw new AppError('code.not_sent');
  await context.codes.checkForClient({ ...input, clientHash: input.clientHash });
}

/** Checks a code without using it (user/check_email and user/check_mobile). */
export async function checkCode(
  context: AccountContext,
  input: { purpose: CodePurpose; identity: Identity; code: string; ip: string },
): Promise<void> {
  await context.codes.check({
    purpose: input.purpose,
    destination: input.identity.destination,
    code: input.code,
    ip: input.ip,
  });
}

async function setPassword(context: AccountContext, user: UserRow, passwordHash: string, codeId?: number) {
  await context.store.transaction(async (tx) => {
    if (codeId !== undefined) await context.codes.consume(tx, codeId);
    await tx.query('update users set password_hash = $2, password_changed_at = now() where id = $1', [
      user.id,
      passwordHash,
    ]);
  });
  await context.sessions.revokeUser(user.id);
  context.realtime.endUser(user.id);
}

/** user/forget: a new password for the account the code was sent to. */
export async function resetPassword(
  context: AccountContext,
  input: { identity: Identity; code: string; password: string; rePassword: string; ip: string },
): Promise<void> {
  if (input.password !== input.rePassword) throw new AppError('account.password_mismatch');
  const user = await findUserByIdentity(context.store, input.identity);
  if (!user) throw new AppError('account.not_found');
  const codeId = await context.codes.check({
    purpose: 'forget',
    destination: input.identity.destination,
    code: input.code,
    ip: input.ip,
  });
  await setPassword(context, user, await hashPassword(input.password), codeId);
  // Whoever proved the code may log in at once, even if someone else had locked the account by guessing.
  await liftAccountLock(context.throttle, LOGIN_LOCKOUT, `user:${user.id}`);
}

/** safe/password: the old password, then a new one; other sessions end, this device gets a fresh token. */
export async function changePassword(
  context: AccountContext,
  userId: number,
  input: { oldPassword: string; password: string; rePassword: string; origin?: SessionOrigin },
): Promise<{ token: string }> {
  if (input.password !== input.rePassword) throw new AppError('account.password_mismatch');
  const user = await findUserById(context.store, userId);
  if (!user) throw new AppError('auth.login_required', {}, '999');
  await checkOwnPassword(context, user, input.oldPassword);
  if (input.oldPassword === input.password) throw new AppError('account.password_unchanged');
  await setPassword(context, user, await hashPassword(input.password));
  const session = await createSession(context.store, {
    userId,
    ttlMs: context.sessionTtlMs,
    ...(input.origin === undefined ? {} : { origin: input.origin }),
  });
  return { token: session.token };
}

/** safe/email and safe/mobile: binds the address the code was sent to. */
export async function bindIdentity(
  context: AccountContext,
  userId: number,
  input: { identity: Identity; code: string; ip: string },
): Promise<void> {
  const { identity } = input;
  const user = await findUserById(context.store, userId);
  if (!user) throw new AppError('auth.login_required', {}, '999');
  const owner = await findUserByIdentity(context.store, identity);
  if (owner?.id === userId) throw new AppError('account.already_bound');
  const taken = identity.kind === 'email' ? 'account.email_taken' : 'account.mobile_taken';
  if (owner) throw new AppError(taken);
  const codeId = await context.codes.check({
    purpose: identity.kind === 'email' ? 'bind_email' : 'bind_mobile',
    destination: identity.destination,
    code: input.code,
    ip: input.ip,
    userId,
  });
  try {
    await context.store.transaction(async (tx) => {
      await context.codes.consume(tx, codeId);
      if (identity.kind === 'email') {
        // An account named after its e-mail follows the address, so that the old one is free again.
        await tx.query(
          `update users set email = $2, account = case when account = email then $2 else account end where id = $1`,
          [userId, identity.email],
        );
      } else {
        await tx.query(
          `update users set phone = $2, area_code = $3,
                  account = case when email is null or account <> email then $4 else account end
            where id = $1`,
          [userId, identity.phone.national, identity.phone.areaCode, identity.phone.e164],
        );
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(taken);
    throw error;
  }
  context.sessions.forgetUser(userId);
}
