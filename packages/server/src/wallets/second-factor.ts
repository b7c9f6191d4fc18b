// The second factor for moving money out (issue 21, defect 8): adding a withdrawal address and requesting a
// withdrawal each need a code besides the session. With an authenticator on, it is the authenticator's code
// (a code counts once; wrong codes count toward the same pause as at login); without one, a code of purpose
// 'withdraw' sent to the account's e-mail, or to its phone when it has no e-mail (ten minutes, used once,
// five wrong tries; accounts/codes.ts). A session alone never suffices.
import type { Language } from '@fairex/shared';
import type { AccountContext } from '../accounts/context.ts';
import { acceptTotp } from '../accounts/totp.ts';
import type { UserRow } from '../accounts/users.ts';
import { findUserById } from '../accounts/users.ts';
import { refuse } from './engine-calls.ts';

import type { SecondFactorMethod, WalletProtection } from '@fairex/shared';

export type { SecondFactorMethod } from '@fairex/shared';

/** The codes one request may carry: the authenticator's, or the one sent by e-mail or SMS. */
export interface SecondFactorCodes {
  totpCode?: string | undefined;
  code?: string | undefined;
  /** The client address, for the wrong-code limits. */
  ip: string;
}

export interface SecondFactor {
  /** Whether the account uses its authenticator (the withdrawal page's `totp_required`). */
  isOn(userId: number): Promise<boolean>;
  /** The method and where codes go, masked ("al***@***.com"); null destination for the authenticator. */
  method(userId: number): Promise<WalletProtection>;
  /** Sends a withdrawal code by e-mail or SMS; refused when the authenticator protects the account. */
  send(
    userId: number,
    ip: string,
    lang: Language,
  ): Promise<{ method: SecondFactorMethod; destination: string }>;
  /** Checks and uses up the code of the account's method; throws a translated refusal otherwise. */
  verify(userId: number, codes: SecondFactorCodes): Promise<void>;
}

const CODE_PATTERN = /^\d{6}$/;

function methodOf(user: UserRow): { method: SecondFactorMethod; destination: string | null } {
  if (user.totp_secret !== null) return { method: 'totp', destination: null };
  if (user.email !== null) return { method: 'email', destination: user.email };
  if (user.phone !== null && user.area_code !== null) {
    return { method: 'sms', destination: `+${user.area_code}${user.phone}` };
  }
  // Every account is registered with an e-mail or a phone; one without either cannot receive a code.
  return { method: 'email', destination: null };
}

/** An e-mail or phone as the user may see it in a reply: enough to recognise, not to read back. */
export function maskDestination(destination: string): string {
  const at = destination.lastIndexOf('@');
  if (at > 0) {
    const local = destination.slice(0, at);
    const domain = destination.slice(at + 1);
    const dot = domain.lastIndexOf('.');
    return `${local.slice(0, Math.min(2, local.length - 1) || 1)}***@***${dot >= 0 ? domain.slice(dot) : ''}`;
  }
  const digits = destination.replace(/\D/g, '');
  return digits.length >= 7 ? `+${digits.slice(0, 3)}****${digits.slice(-2)}` : '***';
}

async function userOf(context: AccountContext, userId: number): Promise<UserRow> {
  const user = await findUserById(context.store, userId);
  if (user === null) refuse('auth.login_required');
  return user;
}

/**
 * `purpose`: what the e-mail or SMS code confirms and is kept for: 'withdraw' (withdrawals and their
 * addresses) or 'p2p_release' (releasing a P2P order's coins); a code of one purpose never passes the other.
 */
export function withdrawalSecondFactor(
  context: AccountContext,
  purpose: 'withdraw' | 'p2p_release' = 'withdraw',
): SecondFactor {
  return {
    async isOn(userId) {
      const user = await findUserById(context.store, userId);
      return user !== null && user.totp_secret !== null;
    },
    async method(userId) {
      const { method, destination } = methodOf(await userOf(context, userId));
      return { method, destination: destination === null ? null : maskDestination(destination) };
    },
    async send(userId, ip, lang) {
      const { method, destination } = methodOf(await userOf(context, userId));
      if (method === 'totp') refuse('wallet.use_authenticator');
      if (destination === null) refuse('code.not_sent');
      await context.codes.send({
        purpose,
        channel: method === 'sms' ? 'sms' : 'email',
        destination,
        userId,
        ip,
        lang,
      });
      return { method, destination: maskDestination(destination) };
    },
    async verify(userId, codes) {
      const user = await userOf(context, userId);
      const { method, destination } = methodOf(user);
      if (method === 'totp') {
        if (codes.totpCode === undefined) refuse('totp.required');
        if (!CODE_PATTERN.test(codes.totpCode)) refuse('totp.wrong');
        await acceptTotp(context, user, codes.totpCode, user.totp_secret as string);
        return;
      }
      if (codes.code === undefined || destination === null) {
        refuse(method === 'sms' ? 'wallet.code_required_sms' : 'wallet.code_required_email');
      }
      const codeId = await context.codes.check({
        purpose,
        destination,
        code: codes.code,
        ip: codes.ip,
        userId,
      });
      // Used up at once, before the money moves: a second request with the same code is refused.
      await context.codes.consume(context.store, codeId);
    },
  };
}
