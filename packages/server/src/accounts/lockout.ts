// Failed password logins, limited per client address AND per account, so that nobody can lock other people
// out (users' and administrators' logins share it):
// - an address that fails too often, over all accounts, is refused for a while: it only blocks itself;
// - an account that failed too often locks for a bounded time that doubles with every further failure,
//   but only for the addresses that failed for it: the owner, from an address that has not failed for the
//   account, still logs in with the right password, and a new address gets one guess before it is held
//   back like the others;
// - a successful login forgets the failures of its address for the account; a password reset lifts the
//   account's lock.
// Every failure is three rows of auth_throttle (address, account, account from address). They are written
// before the password is checked, in one step with the lockout check (reserveLoginAttempt): an attempt is
// counted as a failure until its password proves right, which gives the reservation back. So parallel
// guesses each count the ones before them, and a burst gets no more guesses than one request at a time.
import { AppError } from '../http/app-error.ts';
import type { Queryable, Store } from '../store/index.ts';
import { lockCounted } from '../store/counted-locks.ts';
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
async function refuseLockedOut(
  throttle: Throttle,
  lockout: LoginLockout,
  account: string,
  ip: string,
  db: Queryable,
): Promise<void> {
  const address = await throttle.state(lockout.address, ip, db);
  if (address.blocked) refuse(address.retryAfterMs);
  const failures = await throttle.recent(lockout.accountScope, account, ACCOUNT_FAILURE_WINDOW_MS, db);
  const remainingMs = lockMs(failures.count) - failures.sinceLatestMs;
  if (remainingMs <= 0) return;
  const mine = await throttle.recent(
    lockout.accountAddressScope,
    pairSubject(account, ip),
    ACCOUNT_FAILURE_WINDOW_MS,
    db,
  );
  if (mine.count > 0) refuse(remainingMs);
}

/** A login attempt counted as a failure until its password proves right. */
export interface LoginAttempt {
  readonly account: string;
  readonly ip: string;
  /** The three auth_throttle rows that count it. */
  readonly ids: readonly number[];
}

/**
 * Checks the lockout and counts the attempt as a failure in one step, before the password is checked: one
 * transaction takes the address's and the account's counted locks, refuses a locked-out attempt (writing
 * nothing), else writes the attempt's three failure rows. A wrong password leaves them; a right one gives
 * them back with `acceptLoginAttempt`.
 */
export async function reserveLoginAttempt(
  store: Store,
  throttle: Throttle,
  lockout: LoginLockout,
  account: string,
  ip: string,
): Promise<LoginAttempt> {
  return store.transaction(async (tx) => {
    await lockCounted(tx, [
      [lockout.address.scope, ip],
      [lockout.accountScope, account],
    ]);
    await refuseLockedOut(throttle, lockout, account, ip, tx);
    const ids = [
      await throttle.record(lockout.accountScope, account, tx),
      await throttle.record(lockout.accountAddressScope, pairSubject(account, ip), tx),
      await throttle.record(lockout.address.scope, ip, tx),
    ];
    return { account, ip, ids };
  });
}

/**
 * The attempt's password was right: its reservation is given back, and the address's own failures for the
 * account are forgotten.
 */
export async function acceptLoginAttempt(
  throttle: Throttle,
  lockout: LoginLockout,
  attempt: LoginAttempt,
): Promise<void> {
  await throttle.release(attempt.ids);
  await throttle.clear(lockout.accountAddressScope, pairSubject(attempt.account, attempt.ip));
}

/** Lifts an account's lock, e.g. after its password was reset by a code. */
export async function liftAccountLock(
  throttle: Throttle,
  lockout: LoginLockout,
  account: string,
): Promise<void> {
  await throttle.clear(lockout.accountScope, account);
}
