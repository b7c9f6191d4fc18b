// The second factor for withdrawals: the authenticator code of the accounts area, asked for whenever the
// user has two-factor authentication on. A code counts once and wrong codes count toward the same pause as
// at login.
import type { AccountContext } from '../accounts/context.ts';
import { acceptTotp } from '../accounts/totp.ts';
import { findUserById } from '../accounts/users.ts';
import { refuse } from './engine-calls.ts';
import type { SecondFactor } from './withdrawals.ts';

export function authenticatorSecondFactor(context: AccountContext): SecondFactor {
  return {
    async isOn(userId) {
      const user = await findUserById(context.store, userId);
      return user !== null && user.totp_secret !== null;
    },
    async verify(userId, code) {
      const user = await findUserById(context.store, userId);
      if (user === null || user.totp_secret === null) return;
      if (!/^\d{6}$/.test(code)) refuse('totp.wrong');
      await acceptTotp(context, context.store, user, code, user.totp_secret);
    },
  };
}
