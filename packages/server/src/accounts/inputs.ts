// Input fields of the account calls: declared in the shared contract (shared/api/account-fields.ts); the
// mapping of a requested code purpose to the stored one is the server's and stays here.
export * from '@fairex/shared/api/account-fields.ts';
import type { RequestedPurpose } from '@fairex/shared/api/account-fields.ts';

/** The stored purpose for a requested one and the channel the code goes by. */
export function resolvePurpose(
  requested: RequestedPurpose | undefined,
  channel: 'email' | 'mobile',
  loggedIn: boolean,
): 'register' | 'forget' | 'bind_email' | 'bind_mobile' {
  const purpose = requested ?? (loggedIn ? 'bind' : 'register');
  if (purpose === 'bind') return channel === 'email' ? 'bind_email' : 'bind_mobile';
  return purpose;
}
