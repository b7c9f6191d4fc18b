// The administrators' second factor: an authenticator app (TOTP, the same RFC 6238 parameters as users').
//
// A password opens an administrator session (admin/admins.ts); the session may act in the back office only
// after it passed a code. An administrator without a confirmed secret enrols at that point: the server makes
// a secret, shows it once as a QR code, and keeps it pending until a code from the app confirms it, which
// also passes the session. Another administrator can reset a lost authenticator; the next sign-in enrols
// again. Codes are accepted one step either side of now and never twice; wrong codes count toward a pause.
// Secrets are stored sealed (accounts/totp-secrets.ts).
import type { AdminSecondFactorState } from '@fairex/shared';
import { Secret, TOTP } from 'otpauth';
import { matchingStep, TOTP_ISSUER } from '../accounts/totp.ts';
import type { Throttle } from '../accounts/throttle.ts';
import { minutesToWait } from '../accounts/throttle.ts';
import { AppError } from '../http/app-error.ts';
import { lockCounted } from '../store/counted-locks.ts';
import type { SecretBoxSource } from '../accounts/totp-secrets.ts';
import { openTotpSecret, sealTotpSecret } from '../accounts/totp-secrets.ts';
import type { Queryable, Store } from '../store/index.ts';

/** Wrong codes per administrator before a 15-minute pause. */
export const ADMIN_TOTP_FAILURES = { scope: 'admin.totp', max: 5, windowMs: 15 * 60_000 };

/** What checking a code needs: the failure counters and the box that opens stored secrets. */
export interface AdminFactorGuards {
  throttle: Throttle;
  secrets: SecretBoxSource;
}

/** verified: the session may act; required: it must pass a code; enrol: the administrator has no secret yet. */
export type SecondFactorState = AdminSecondFactorState;

interface TotpRow {
  secret: string | null;
  pending_secret: string | null;
  last_step: number | null;
}

async function totpRow(db: Queryable, adminId: number): Promise<TotpRow | undefined> {
  const { rows } = await db.query<TotpRow>(
    'select secret, pending_secret, last_step from admin_totp where admin_id = $1',
    [adminId],
  );
  return rows[0];
}

export async function secondFactorState(
  db: Queryable,
  adminId: number,
  tokenHash: string,
): Promise<SecondFactorState> {
  const { rows } = await db.query<{ verified: boolean; enrolled: boolean }>(
    `select exists (select 1 from admin_session_factors where token_hash = $2) as verified,
            exists (select 1 from admin_totp where admin_id = $1 and secret is not null) as enrolled`,
    [adminId, tokenHash],
  );
  const row = rows[0];
  if (row?.verified && row.enrolled) return 'verified';
  return row?.enrolled ? 'required' : 'enrol';
}

/** Starts (or restarts) enrolment: a new pending secret and its otpauth:// address for the QR code. */
export async function startEnrolment(
  db: Queryable,
  guards: AdminFactorGuards,
  admin: { id: number; username: string },
): Promise<{ secret: string; uri: string }> {
  const existing = await totpRow(db, admin.id);
  if (existing?.secret) throw new AppError('backoffice.second_factor_enrolled');
  const secret = new Secret({ size: 20 }).base32;
  await db.query(
    `insert into admin_totp (admin_id, pending_secret) values ($1, $2)
     on conflict (admin_id) do update set pending_secret = excluded.pending_secret, updated_at = now()`,
    [admin.id, await sealTotpSecret(guards.secrets, secret)],
  );
  const totp = new TOTP({
    issuer: `${TOTP_ISSUER} back office`,
    label: admin.username,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
  return { secret, uri: totp.toString() };
}

/**
 * Checks a code against the administrator's secret (or the pending one while enrolling), once: the step is
 * recorded in the same statement that checks it was not used, so two requests with one code cannot both pass.
 * The failures are read and counted under the administrator's lock, in one transaction, so parallel wrong
 * codes count each other.
 */
async function acceptCode(
  store: Store,
  guards: AdminFactorGuards,
  adminId: number,
  code: string,
  which: 'secret' | 'pending_secret',
): Promise<void> {
  const subject = String(adminId);
  const stored = (await totpRow(store, adminId))?.[which];
  if (!stored) {
    throw new AppError(which === 'secret' ? 'backoffice.second_factor_not_enrolled' : 'totp.not_started');
  }
  const secret = await openTotpSecret(guards.secrets, stored);
  const refusal = await store.transaction(async (tx): Promise<AppError | null> => {
    await lockCounted(tx, [[ADMIN_TOTP_FAILURES.scope, subject]]);
    const state = await guards.throttle.state(ADMIN_TOTP_FAILURES, subject, tx);
    if (state.blocked) {
      return new AppError('totp.too_many_attempts', { minutes: minutesToWait(state.retryAfterMs) });
    }
    const step = matchingStep(secret, code);
    const { rowCount } =
      step === null
        ? { rowCount: 0 }
        : await tx.query(
            `update admin_totp set last_step = $2, updated_at = now()
              where admin_id = $1 and ${which} = $3 and (last_step is null or last_step < $2)`,
            [adminId, step, stored],
          );
    const right = await guards.throttle.settle(ADMIN_TOTP_FAILURES.scope, subject, rowCount === 1, tx);
    return right ? null : new AppError('totp.wrong');
  });
  if (refusal !== null) throw refusal;
}

async function markSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query(
    'insert into admin_session_factors (token_hash) values ($1) on conflict (token_hash) do nothing',
    [tokenHash],
  );
}

/** Confirms enrolment with a code from the app; the secret becomes the administrator's and the session passes. */
export async function confirmEnrolment(
  store: Store,
  guards: AdminFactorGuards,
  input: { adminId: number; tokenHash: string; code: string },
): Promise<void> {
  const row = await totpRow(store, input.adminId);
  if (row?.secret) throw new AppError('backoffice.second_factor_enrolled');
  await acceptCode(store, guards, input.adminId, input.code, 'pending_secret');
  await store.transaction(async (tx) => {
    await tx.query(
      `update admin_totp set secret = pending_secret, pending_secret = null, enrolled_at = now(), updated_at = now()
        where admin_id = $1 and secret is null and pending_secret is not null`,
      [input.adminId],
    );
    await markSession(tx, input.tokenHash);
  });
}

/** Passes the session with a code from the administrator's enrolled app. */
export async function verifySession(
  store: Store,
  guards: AdminFactorGuards,
  input: { adminId: number; tokenHash: string; code: string },
): Promise<void> {
  await acceptCode(store, guards, input.adminId, input.code, 'secret');
  await markSession(store, input.tokenHash);
}

/** Checks a fresh code of the administrator's app for one decision (an arbitration); a code counts once. */
export async function confirmAdminCode(
  store: Store,
  guards: AdminFactorGuards,
  input: { adminId: number; code: string },
): Promise<void> {
  await acceptCode(store, guards, input.adminId, input.code, 'secret');
}

/**
 * Forgets an administrator's authenticator (a lost phone): their sessions lose the second factor, and the
 * next sign-in enrols a new app. Returns whether there was one.
 */
export async function resetAdminSecondFactor(db: Queryable, adminId: number): Promise<boolean> {
  const { rowCount } = await db.query('delete from admin_totp where admin_id = $1', [adminId]);
  await db.query(
    `delete from admin_session_factors
      where token_hash in (select token_hash from admin_sessions where admin_id = $1)`,
    [adminId],
  );
  return (rowCount ?? 0) > 0;
}
