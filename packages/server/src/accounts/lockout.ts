// Failed password logins, limited per client address AND per account, so that nobody can lock other people
// out (users' and administrators' logins share it):
// - an address that fails too often, over all accounts, is refused for a while: it only blocks itself;
// - an account that failed too often locks for a bounded time that doubles with every further failure,
//   but only for the addresses that failed for it: the owner, from an address that has not failed for the
//   account, still logs in with the right password, and a new address gets one guess before it is held
//   back like the others;
// - a successful login forgets the failures of its address for the account; a password reset lifts the
//   account's lock.
// Every failure is three rows of auth_throttle (address, account, account from address).
import { AppError } from '../http/app-error.ts';
import type { Limit, Throttle } from './throttle.ts';
import { minutesToWait } from './throttle.ts';

export interface LoginLockout {
  /** Failures from one address over all accounts before that address is refused. */
  address: Limit;
  /** Scope of an account's failures from any address. */
  accountScope: string;
  /** Scope of an account's failures from one address. */
  accountAddressScope: string;
}

/** Failures of one account (from any address) before it locks. */
export const LOCK_AFTER_FAILURES = 5;
export const FIRST_LOCK_MS = 5 * 60_000;
export const LONGEST_LOCK_MS = 60 * 60_000;
/** An account's failures count for a day (the counters' retention), unless a success or reset clears them. */
export const ACCOUNT_FAILURE_WINDOW_MS = 24 * 3_600_000;

/** How long an account stays locked after its latest failure, given its failures of the day. */
export function lockMs(failures: number): number {
  if (failures < LOCK_AFTER_FAILURES) return 0;
  return Math.min(FIRST_LOCK_MS * 2 ** (failures - LOCK_AFTER_FAILURES), LONGEST_LOCK_MS);
}

function pairSubject(account: string, ip: string): string {
  return `${account}|${ip}`;
}

function refuse(retryAfterMs: number): never {
  throw new AppError('account.too_many_failures', { minutes: minutesToWait(retryAfterMs) });
}

/** Refuses the attempt before the password is checked, when the address or the account is locked for it. */
export async function refuseLockedOut(
  throttle: Throttle,
  lockout: LoginLockout,
  account: string,
  ip: string,
): Promise<void> {
  const address = await throttle.state(lockout.address, ip);
  if (address.blocked) refuse(address.retryAfterMs);
  const failures = await throttle.recent(lockout.accountScope, account, ACCOUNT_FAILURE_WINDOW_MS);
  const remainingMs = lockMs(failures.count) - failures.sinceLatestMs;
  if (remainingMs <= 0) return;
  const mine = await throttle.recent(
    lockout.accountAddressScope,
    pairSubject(account, ip),
    ACCOUNT_FAILURE_WINDOW_MS,
  );
  if (mine.count > 0) refuse(remainingMs);
}

export async function recordLoginFailure(
  throttle: Throttle,
  lockout: LoginLockout,
  account: string,
  ip: string,
): Promise<void> {
  await throttle.record(lockout.accountScope, account);
  await throttle.record(lockout.accountAddressScope, pairSubject(account, ip));
  await throttle.record(lockout.address.scope, ip);
}

/** The address proved the password: its own failures for the account are forgotten. */
export async function recordLoginSuccess(
  throttle: Throttle,
  lockout: LoginLockout,
  account: string,
  ip: string,
): Promise<void> {
  await throttle.clear(lockout.accountAddressScope, pairSubject(account, ip));
}

/** Lifts an account's lock, e.g. after its password was reset by a code. */
export async function liftAccountLock(
  throttle: Throttle,
  lockout: LoginLockout,
  account: string,
): Promise<void> {
  await throttle.clear(lockout.accountScope, account);
}
