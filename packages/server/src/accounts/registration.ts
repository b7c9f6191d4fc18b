// Registering: the account must be free, the code sent to it right, the passwords equal, and (unless the
// operator turned it off) the invite code known. The new user gets an invite code of their own.
import type { Language } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { AccountContext } from './context.ts';
import type { Identity } from './identity.ts';
import { findUserByIdentity } from './identity.ts';
import type { Invite } from './invite-codes.ts';
import { findInvite, newInviteCode, useOperatorCode } from './invite-codes.ts';
import { hashPassword } from './passwords.ts';
import { isUniqueViolation } from './users.ts';

export interface RegisterInput {
  identity: Identity;
  code: string;
  password: string;
  rePassword: string;
  inviteCode: string | undefined;
  ip: string;
  lang: Language;
}

/** Refuses an identity that already has an account (user/check and the register code). */
export async function assertAccountFree(context: AccountContext, identity: Identity): Promise<void> {
  const existing = await findUserByIdentity(context.store, identity);
  if (existing)
    throw new AppError(identity.kind === 'email' ? 'account.email_taken' : 'account.mobile_taken');
}

async function resolveInvite(context: AccountContext, code: string | undefined): Promise<Invite | null> {
  if (code === undefined) {
    if (context.inviteCodeRequired) throw new AppError('account.invite_required');
    return null;
  }
  const invite = await findInvite(context.store, code);
  if (!invite) throw new AppError('account.invite_invalid');
  return invite;
}

export async function register(context: AccountContext, input: RegisterInput): Promise<{ userId: number }> {
  if (input.password !== input.rePassword) throw new AppError('account.password_mismatch');
  // The invite code is judged before the e-mailed or texted code is even looked at: a wrong invite code
  // neither uses that code up nor counts as a wrong try, so the user corrects it and submits again.
  const invite = await resolveInvite(context, input.inviteCode);
  await assertAccountFree(context, input.identity);
  const codeId = await context.codes.check({
    purpose: 'register',
    destination: input.identity.destination,
    code: input.code,
    ip: input.ip,
  });
  const passwordHash = await hashPassword(input.password);
  try {
    return await context.store.transaction(async (tx) => {
      await context.codes.consume(tx, codeId);
      if (invite?.kind === 'operator' && !(await useOperatorCode(tx, invite.code))) {
        throw new AppError('account.invite_invalid');
      }
      const identity = input.identity;
      const { rows } = await tx.query<{ id: number }>(
        `insert into users (account, email, phone, area_code, password_hash, extension_code, parent_id, invited_with)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
        [
          identity.destination,
          identity.kind === 'email' ? identity.email : null,
          identity.kind === 'mobile' ? identity.phone.national : null,
          identity.kind === 'mobile' ? identity.phone.areaCode : null,
          passwordHash,
          await newInviteCode(tx),
          invite?.kind === 'user' ? invite.parentId : null,
          invite?.code ?? null,
        ],
      );
      const userId = rows[0]?.id;
      if (userId === undefined) throw new Error('user insert returned no id');
      return { userId };
    });
  } catch (error) {
    // Two registrations of one account raced: the loser's transaction (and its code use) rolled back.
    if (isUniqueViolation(error)) {
      throw new AppError(input.identity.kind === 'email' ? 'account.email_taken' : 'account.mobile_taken');
    }
    throw error;
  }
}
